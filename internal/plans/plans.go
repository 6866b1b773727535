// Package plans holds the rules of Aporta's own plans that the API and the workflows share
// (organisation-and-account §4 "Trial and plans", §6).
package plans

// Original is the plan of an organisation that never bought one.
const Original = "original"

// AllowedByPlan reports whether an organisation may use QR download, immediate charge and global
// payments. effective is its effective plan (the shard view organization_effective_plans: Essential
// during the 90-day trial, otherwise the plan it holds), never the stored plan_code alone.
func AllowedByPlan(effective string) bool { return effective != "" && effective != Original }
