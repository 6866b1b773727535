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

// An organisation's external team (agency): face-to-face fundraisers. Its people hold a role
// (managers, operators, supervisors); what they may do on the organisation's donors is what the
// organisation granted each of them (acquisition, management), and only on the agency's authorised
// campaigns (Campaign#agencies) and the donations the agency acquired (Donation#agencies). Discarding
// a person or the agency deletes their relations here.
class Agency implements Namespace {
  related: {
    organizations: Organization[]
    managers: User[]
    operators: User[]
    supervisors: User[]
    acquisition: User[]
    management: User[]
  }

  permits = {
    // The organisation side: its administrators and agency administrators run the agency.
    administer: (ctx: Context): boolean =>
      this.related.organizations.traverse((o) => o.permits.manage_agencies(ctx)),

    // Sign in to the agency's work area and see its campaigns and acquired donors.
    work: (ctx: Context): boolean =>
      this.related.managers.includes(ctx.subject) ||
      this.related.operators.includes(ctx.subject) ||
      this.related.supervisors.includes(ctx.subject),

    // Correct or void anyone's acquisition during the sync delay.
    supervise: (ctx: Context): boolean =>
      this.related.managers.includes(ctx.subject) || this.related.supervisors.includes(ctx.subject),

    // Register new donors (the organisation's acquisition grant).
    acquire: (ctx: Context): boolean => this.permits.work(ctx) && this.related.acquisition.includes(ctx.subject),

    // Change amount, change payment method, cancel/discard, reactivate (the management grant).
    manage_donors: (ctx: Context): boolean => this.permits.work(ctx) && this.related.management.includes(ctx.subject),
  }
}

// A campaign the organisation authorised agencies to sign donors up on.
class Campaign implements Namespace {
  related: {
    agencies: Agency[]
  }

  permits = {
    acquire: (ctx: Context): boolean => this.related.agencies.traverse((a) => a.permits.acquire(ctx)),

    // Manage the donors signed up on it while it stays authorised (Donation#manage).
    manage: (ctx: Context): boolean => this.related.agencies.traverse((a) => a.permits.manage_donors(ctx)),
  }
}

// A donation an agency acquired (its pending acquisition first, then the organisation's donation,
// under the same id); agents names who signed it up.
class Donation implements Namespace {
  related: {
    agencies: Agency[]
    agents: User[]
    campaigns: Campaign[]
  }

  permits = {
    view: (ctx: Context): boolean => this.related.agencies.traverse((a) => a.permits.work(ctx)),

    // The management grant, on a donation the agency acquired on a campaign still authorised to it.
    manage: (ctx: Context): boolean =>
      this.related.agencies.traverse((a) => a.permits.manage_donors(ctx)) &&
      this.related.campaigns.traverse((c) => c.permits.manage(ctx)),

    // Correct or void it while it waits for its sync: the agent who made it, or a supervisor.
    correct: (ctx: Context): boolean =>
      (this.related.agents.includes(ctx.subject) && this.related.agencies.traverse((a) => a.permits.work(ctx))) ||
      this.related.agencies.traverse((a) => a.permits.supervise(ctx)),
  }
}

class Organization implements Namespace {
  related: {
    administrators: User[]
    operators: User[]
    supervisors: User[]
    // Agency administrators: external teams only.
    agency_admins: User[]
  }

  permits = {
    // Anyone with a role: their own account (name, password, contact, verification).
    member: (ctx: Context): boolean =>
      this.permits.view(ctx) || this.related.agency_admins.includes(ctx.subject),

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

    // External teams: agencies, their campaigns and people.
    manage_agencies: (ctx: Context): boolean =>
      this.related.administrators.includes(ctx.subject) || this.related.agency_admins.includes(ctx.subject),
  }
}
