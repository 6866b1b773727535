package tour_test

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
)

func TestGuideProgressPerUser(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "PE")
	op := s.NewUser(t, "operator")
	s.AddMember(t, op, admin.OrgID, "operator")

	step := func(c *apitest.Client, guide string) int {
		res := c.JSON(http.MethodGet, "/manage/api/tours/"+guide, nil)
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		var out struct{ Step int }
		res.Decode(t, &out)
		return out.Step
	}
	for _, g := range []string{"registration_completed", "upload_documents", "payment_gateways_config", "create_campaign"} {
		require.Equal(t, 0, step(admin, g), g)
		res := admin.JSON(http.MethodPut, "/manage/api/tours/"+g+"/progress", map[string]int{"step": 1})
		require.Equal(t, http.StatusOK, res.Status, string(res.Body))
		require.Equal(t, 1, step(admin, g))
		require.Equal(t, 0, step(op, g), "progress is per user")
	}
	require.Equal(t, http.StatusOK, admin.JSON(http.MethodPut, "/manage/api/tours/create_campaign/progress", map[string]int{"step": 4}).Status)
	require.Equal(t, 4, step(admin, "create_campaign"))
	require.Equal(t, http.StatusUnprocessableEntity, admin.JSON(http.MethodPut, "/manage/api/tours/upload_documents/progress", map[string]int{"step": 7}).Status)
	require.Equal(t, http.StatusUnprocessableEntity, admin.JSON(http.MethodPut, "/manage/api/tours/upload_documents/progress", map[string]any{}).Status)
	require.Equal(t, http.StatusNotFound, admin.JSON(http.MethodGet, "/manage/api/tours/unknown", nil).Status)
}
