package staff_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/staff"
)

// A staff password alone (phished, reused) opens nothing: the console wants a second factor.
func TestStaffConsoleRefusesPasswordOnlySession(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	st := s.NewStaffPasswordOnly(t)

	res := st.JSON(http.MethodGet, "/staff/api/organizations", nil)
	require.Equal(t, http.StatusForbidden, res.Status, string(res.Body))
	require.Equal(t, staff.CodeSecondFactorRequired, res.ErrorCode())
	require.NotEmpty(t, res.ErrorMessage())

	// Setting up an authenticator app raises this session to AAL2.
	st.EnrollTOTP()
	res = st.JSON(http.MethodGet, "/staff/api/organizations", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
}

// Once the authenticator app is set up, a password login must be followed by its code.
func TestStaffWithAuthenticatorMustEnterCode(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	st := s.NewStaff(t)

	passwordOnly := s.Login(t, st.Email, apitest.Password)
	res := passwordOnly.JSON(http.MethodGet, "/staff/api/organizations", nil)
	require.Equal(t, http.StatusForbidden, res.Status, string(res.Body))
	require.Equal(t, "session.second_factor_required", res.ErrorCode())

	full := s.LoginAAL2(t, st.Email, apitest.Password, st.TOTPSecret)
	res = full.JSON(http.MethodGet, "/staff/api/organizations", nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
}
