package campaign

import (
	"context"

	"github.com/aporta/aporta/internal/gateway/dlocal"
	"github.com/aporta/aporta/internal/reference"
)

// PublicBankDebit is the off-site bank debit the form offers when the processor a rule routes the
// campaign to has one in the organisation's country (the processor's payment methods say): the
// donor picks their bank from the country's list, their person type and document, and approves the
// payment at their bank. One-time donations only (api/donation bankdebit.go).
type PublicBankDebit struct {
	Method      string           `json:"method"` // the processor's name for it (PSE)
	Banks       []reference.Bank `json:"banks"`
	PersonTypes []string         `json:"person_types"` // natural, legal
	IDTypes     []string         `json:"id_types"`     // the country's document types a bank takes
}

// bankMethods is a processor account that may offer an off-site bank debit (processing.Account).
type bankMethods interface {
	BankMethod(ctx context.Context) (dlocal.BankMethod, bool, error)
}

// bankDebitOf is the bank debit the form's account offers, nil when none (or while the processor
// does not answer: the form offers cards only).
func (s *Service) bankDebitOf(ctx context.Context, f Form, a Account, docTypes []string) *PublicBankDebit {
	bm, ok := a.Client.(bankMethods)
	if !ok {
		return nil
	}
	m, offered, err := bm.BankMethod(ctx)
	if err != nil {
		s.log().WarnContext(ctx, "campaign: processor bank debit, the form offers cards only", "org", f.Org.ID, "error", err)
	}
	if !offered {
		return nil
	}
	banks, err := reference.Banks(ctx, f.Scope.Store(), f.Org.Country)
	if err != nil || len(banks.Banks) == 0 {
		return nil
	}
	out := &PublicBankDebit{Method: m.Name, Banks: banks.Banks, PersonTypes: []string{"natural", "legal"}, IDTypes: []string{}}
	for _, t := range docTypes {
		if t != "Otro" {
			out.IDTypes = append(out.IDTypes, t)
		}
	}
	return out
}
