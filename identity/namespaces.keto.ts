// Ory Keto namespaces (Ory Permission Language). The API asks Keto "may this user do X on this
// organisation?"; the permits below are the one place that answers it.
import { Namespace, Context } from "@ory/keto-namespace-types"

class User implements Namespace {}

// Product staff who verify organisations' documents and enable accounts.
class Staff implements Namespace {
  related: {
    members: User[]
  }

  permits = {
    verify_organizations: (ctx: Context): boolean => this.related.members.includes(ctx.subject),
  }
}

// Reserved for external teams (agencies); their users act on the organisations they are linked to.
class Agency implements Namespace {
  related: {
    organizations: Organization[]
    managers: User[]
    operators: User[]
    supervisors: User[]
  }
}

class Organization implements Namespace {
  related: {
    administrators: User[]
    operators: User[]
    supervisors: User[]
  }

  permits = {
    // Read the dashboard, campaigns, donations, donors and transactions.
    view: (ctx: Context): boolean =>
      this.related.administrators.includes(ctx.subject) ||
      this.related.operators.includes(ctx.subject) ||
      this.related.supervisors.includes(ctx.subject),

    // Create and edit campaigns and their forms.
    edit_campaigns: (ctx: Context): boolean =>
      this.related.administrators.includes(ctx.subject) || this.related.operators.includes(ctx.subject),

    publish_campaigns: (ctx: Context): boolean => this.related.administrators.includes(ctx.subject),

    // Pause, restore, discard, collect, change amount, payment method and periodic increases.
    manage_donations: (ctx: Context): boolean =>
      this.related.administrators.includes(ctx.subject) || this.related.operators.includes(ctx.subject),

    export_data: (ctx: Context): boolean =>
      this.related.administrators.includes(ctx.subject) || this.related.supervisors.includes(ctx.subject),

    manage_users: (ctx: Context): boolean => this.related.administrators.includes(ctx.subject),

    // Organisation data, documents, gateways, bank accounts, subscription.
    manage_organization: (ctx: Context): boolean => this.related.administrators.includes(ctx.subject),
  }
}
