package plans

import "testing"

func TestAllowedByPlan(t *testing.T) {
	for code, want := range map[string]bool{"original": false, "": false, "essential_monthly": true, "partner_yearly": true} {
		if got := AllowedByPlan(code); got != want {
			t.Errorf("AllowedByPlan(%q) = %v, want %v", code, got, want)
		}
	}
}
