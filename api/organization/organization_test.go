package organization_test

import (
	"bytes"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/organization"
	"github.com/aporta/aporta/internal/reference"
)

func TestParseDomains(t *testing.T) {
	t.Parallel()
	d, ok := organization.ParseDomains(" fundacion.org, Donar.Fundacion.org.ar ")
	require.True(t, ok)
	require.Equal(t, []string{"fundacion.org", "donar.fundacion.org.ar"}, d)
	for _, bad := range []string{"https://fundacion.org", "fundacion.org/donar", "fundacion", "a.org,,b.org", "fun dacion.org", "a.org; b.org", "*.a.org"} {
		_, ok := organization.ParseDomains(bad)
		require.False(t, ok, bad)
	}
	require.True(t, organization.ValidTimezone("America/Argentina/Buenos_Aires"))
	require.False(t, organization.ValidTimezone("Mars/Olympus"))
	require.False(t, organization.ValidTimezone("Local"))
}

func TestGeneralPage(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "CL")

	country := apitest.OK[organization.Country](t, admin, http.MethodGet, "/manage/api/country", nil)
	require.Equal(t, "CL", country.Code)
	require.Equal(t, "CLP", country.Currency)
	require.Equal(t, "+56", country.PhoneCode)
	require.Equal(t, []reference.UIDOption{{Type: "RUT", Placeholder: "76.086.428-5"}}, country.UIDOptions)
	require.Contains(t, country.DocumentTypes, "RUT")
	require.Len(t, country.Documents, 4)

	res := admin.JSON(http.MethodPatch, "/manage/organization", map[string]any{
		"short_description":      "Ayudamos a niñas y niños.",
		"allowed_domains":        "fundacion.cl, donar.fundacion.cl",
		"timezone":               "America/Santiago",
		"address":                map[string]string{"street": "Av. Siempre Viva", "number": "742", "city": "Santiago"},
		"administrative_contact": map[string]string{"name": "Ana", "email": "ana@fundacion.cl", "phone": "+56 9 1234 5678"},
	})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var o organization.Organization
	res.Decode(t, &o)
	require.Equal(t, "Ayudamos a niñas y niños.", o.ShortDescription)
	require.Equal(t, []string{"fundacion.cl", "donar.fundacion.cl"}, o.AllowedDomains)
	require.Equal(t, "Santiago", o.Address.City)
	require.Equal(t, "ana@fundacion.cl", o.AdministrativeContact.Email)

	res = admin.JSON(http.MethodPatch, "/manage/organization", map[string]any{
		"short_description": strings.Repeat("a", 501), "allowed_domains": "https://fundacion.cl", "timezone": "Chile/Nowhere",
	})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Contains(t, string(res.Body), "short_description")
	require.Contains(t, string(res.Body), "allowed_domains")
	require.Contains(t, string(res.Body), "timezone")

	res = admin.JSON(http.MethodPatch, "/manage/organization/permissions", map[string]bool{
		"suggest_monthly_recurrence": true, "recover_rejected_donations": true,
	})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &o)
	require.Equal(t, organization.Permissions{SuggestMonthlyRecurrence: true, RecoverRejectedDonations: true}, o.Permissions)
	require.Equal(t, "Ayudamos a niñas y niños.", o.ShortDescription, "untouched fields stay")

	// Logo: an image by content, under 5 MB.
	res = admin.Multipart(http.MethodPut, "/manage/organization/logo", "logo", "logo.png", bytes.NewReader(apitest.PNG), nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &o)
	require.NotNil(t, o.LogoURL)
	logo := admin.Do(http.MethodGet, *o.LogoURL, nil, "")
	require.Equal(t, http.StatusOK, logo.Status)
	require.Equal(t, apitest.PNG, logo.Body)
	res = admin.Multipart(http.MethodPut, "/manage/organization/logo", "logo", "logo.gif", bytes.NewReader(apitest.PDF), nil)
	require.Equal(t, "organization.invalid_logo", res.ErrorCode())
	big := make([]byte, 5<<20)
	copy(big, apitest.PNG)
	res = admin.Multipart(http.MethodPut, "/manage/organization/logo", "logo", "logo.png", bytes.NewReader(big), nil)
	require.Equal(t, "organization.invalid_logo", res.ErrorCode())

	// An operator may read but not change the organisation.
	op := s.NewUser(t, "operator")
	s.AddMember(t, op, admin.OrgID, "operator")
	require.Equal(t, http.StatusOK, op.JSON(http.MethodGet, "/manage/api/organization", nil).Status)
	require.Equal(t, http.StatusForbidden, op.JSON(http.MethodPatch, "/manage/organization", map[string]string{"short_description": "x"}).Status)
	require.Equal(t, http.StatusForbidden, op.JSON(http.MethodPatch, "/manage/organization/permissions", map[string]bool{"suggest_monthly_recurrence": false}).Status)
}

// TestIdentityAndPictures: the legal name and categories (from the country data's list) and the
// pictures endpoints of the general page (organisation-and-account §3, §7); another organisation's
// picture is not found, and operators only read.
func TestIdentityAndPictures(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")

	country := apitest.OK[organization.Country](t, admin, http.MethodGet, "/manage/api/country", nil)
	require.Contains(t, country.Categories, "education")
	require.Contains(t, country.PhoneCodes, reference.PhoneCode{ISO: "UY", Name: "Uruguay", PhoneCode: "+598"})

	res := admin.JSON(http.MethodPatch, "/manage/organization", map[string]any{
		"legal_name": "  Fundación Los Girasoles Asociación Civil ", "categories": []string{"children", "education"}})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	var o organization.Organization
	res.Decode(t, &o)
	require.Equal(t, "Fundación Los Girasoles Asociación Civil", o.LegalName)
	require.Equal(t, []string{"children", "education"}, o.Categories)
	for _, bad := range []map[string]any{
		{"categories": []string{"astrology"}},
		{"categories": []string{"health", "health"}},
		{"categories": []string{"children", "education", "health", "food", "housing", "animals"}},
		{"legal_name": strings.Repeat("x", 201)},
	} {
		res := admin.JSON(http.MethodPatch, "/manage/organization", bad, "Accept-Language", "pt")
		require.Equal(t, http.StatusUnprocessableEntity, res.Status, bad)
	}
	o = apitest.OK[organization.Organization](t, admin, http.MethodGet, "/manage/api/organization", nil)
	require.Equal(t, []string{"children", "education"}, o.Categories, "refused changes change nothing")

	post := func(c *apitest.Client, imageFor string, body []byte, name string) apitest.Response {
		return c.Multipart(http.MethodPost, "/manage/organization/pictures", "picture[image]", name, bytes.NewReader(body),
			map[string]string{"image_for": imageFor})
	}
	res = post(admin, "gallery", apitest.PNG, "comedor.png")
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	require.Equal(t, http.StatusCreated, post(admin, "cover", apitest.PNG, "portada.png").Status)
	res = post(admin, "cover", apitest.PNG, "portada-nueva.png")
	require.Equal(t, http.StatusCreated, res.Status)
	res.Decode(t, &o)
	require.Len(t, o.Pictures, 2, "a new cover replaces the old one")
	require.Equal(t, "organization.invalid_picture", post(admin, "gallery", apitest.PDF, "x.png").ErrorCode())
	require.Equal(t, "validation_failed", post(admin, "banner", apitest.PNG, "x.png").ErrorCode())
	img := admin.Do(http.MethodGet, o.Pictures[0].URL, nil, "")
	require.Equal(t, http.StatusOK, img.Status)
	require.Equal(t, apitest.PNG, img.Body)
	require.Equal(t, "image/png", img.Header.Get("Content-Type"))

	// Another organisation can neither see nor delete them.
	other := s.NewOrgAdmin(t, "AR")
	require.Equal(t, http.StatusNotFound, other.Do(http.MethodGet, o.Pictures[0].URL, nil, "").Status)
	require.Equal(t, http.StatusNotFound, other.JSON(http.MethodDelete, "/manage/organization/pictures/"+o.Pictures[0].ID.String(), nil).Status)
	op := s.NewUser(t, "operator")
	s.AddMember(t, op, admin.OrgID, "operator")
	require.Equal(t, http.StatusOK, op.Do(http.MethodGet, o.Pictures[0].URL, nil, "").Status)
	require.Equal(t, http.StatusForbidden, post(op, "gallery", apitest.PNG, "x.png").Status)

	gone := o.Pictures[0]
	res = admin.JSON(http.MethodDelete, "/manage/organization/pictures/"+gone.ID.String(), nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &o)
	require.Len(t, o.Pictures, 1)
	require.Equal(t, http.StatusNotFound, admin.Do(http.MethodGet, gone.URL, nil, "").Status)
}
