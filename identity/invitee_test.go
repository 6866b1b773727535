package identity

import (
	"maps"
	"strings"
	"testing"
)

func TestInviteeFields(t *testing.T) {
	for _, c := range []struct {
		email, first, last string
		want               map[string]string
	}{
		{"ana@example.org", "Ana", "Pérez", map[string]string{}},
		{"", "Ana", "Pérez", map[string]string{"email": "user.email_required"}},
		{"ana@example", "Ana", "Pérez", map[string]string{"email": "user.email_invalid"}},
		{"Ana <ana@example.org>", "Ana", "Pérez", map[string]string{"email": "user.email_invalid"}},
		{"ana@example.org", "", "Al", map[string]string{"first_name": "user.first_name_required", "last_name": "user.last_name_min_length"}},
		{"ana@example.org", "Ana", strings.Repeat("é", 101), map[string]string{"last_name": "user.name_too_long"}},
	} {
		if got := InviteeFields("user", c.email, c.first, c.last); !maps.Equal(got, c.want) {
			t.Errorf("InviteeFields(%q, %q, %q) = %v, want %v", c.email, c.first, c.last, got, c.want)
		}
	}
}
