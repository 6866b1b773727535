import { createFileRoute } from '@tanstack/react-router';
import { summaryQuery, transactionsQuery } from '../../features/transactions/api';
import { TransactionsPage } from '../../features/transactions/TransactionsPage';
import { transactionsSearch } from '../../features/transactions/search';

export const Route = createFileRoute('/manage/transactions')({
  validateSearch: transactionsSearch,
  loaderDeps: ({ search }) => search,
  loader: ({ context: { queryClient }, deps }) =>
    Promise.all([queryClient.ensureQueryData(summaryQuery(deps)), queryClient.ensureQueryData(transactionsQuery(deps))]),
  component: function TransactionsRoute() {
    const search = Route.useSearch();
    const navigate = Route.useNavigate();
    return <TransactionsPage search={search} onSearch={(next) => navigate({ search: (prev) => ({ locale: (prev as { locale?: string }).locale, ...next }), replace: true })} />;
  },
});
