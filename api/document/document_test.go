package document_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"testing"

	"github.com/google/uuid"
	"github.com/stretchr/testify/require"
	"gocloud.dev/blob"

	"github.com/aporta/aporta/api/apitest"
	"github.com/aporta/aporta/api/document"
	"github.com/aporta/aporta/api/organization"
	apiblob "github.com/aporta/aporta/internal/blob"
	"github.com/aporta/aporta/internal/i18n"
)

type org = organization.Organization

func getOrg(t *testing.T, c *apitest.Client) org {
	t.Helper()
	return apitest.OK[org](t, c, http.MethodGet, "/manage/api/organization", nil)
}

// stored reports what an organisation has in storage: attachment rows and blob objects.
func stored(t *testing.T, s *apitest.Stack, orgID uuid.UUID) (rows int, objects int) {
	t.Helper()
	ctx := context.Background()
	scope, err := s.Tenants.ForOrganization(ctx, orgID)
	require.NoError(t, err)
	require.NoError(t, scope.QueryRow(ctx, "SELECT count(*) FROM document_attachments WHERE organization_id = $1", orgID).Scan(&rows))
	b, err := apiblob.Open(ctx, s.Config.BlobURL)
	require.NoError(t, err)
	defer b.Close()
	it := b.List(&blob.ListOptions{Prefix: "organizations/" + orgID.String() + "/"})
	for {
		_, err := it.Next(ctx)
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		objects++
	}
	return rows, objects
}

func upload(c *apitest.Client, docType, name string, content []byte, query string) apitest.Response {
	return c.Multipart(http.MethodPost, "/manage/api/accounts/documents"+query, "file", name, bytes.NewReader(content),
		map[string]string{"document_type": docType})
}

func TestBadUploadsAreRefusedAndStoreNothing(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")

	// A Windows executable renamed to .pdf.
	res := upload(admin, "bylaws", "estatuto.pdf", apitest.EXE, "")
	require.Equal(t, http.StatusUnprocessableEntity, res.Status, string(res.Body))
	require.Equal(t, "document.invalid_file", res.ErrorCode())
	require.Equal(t, i18n.T(i18n.ES, "document.invalid_file"), res.ErrorMessage())

	// The same in English and Portuguese.
	res = upload(admin, "bylaws", "estatuto.pdf", apitest.EXE, "?locale=en")
	require.Equal(t, i18n.T(i18n.EN, "document.invalid_file"), res.ErrorMessage())
	res = upload(admin, "bylaws", "estatuto.pdf", apitest.EXE, "?locale=pt")
	require.Equal(t, i18n.T(i18n.PT, "document.invalid_file"), res.ErrorMessage())

	// A zip that is not a Word document, named .docx.
	res = upload(admin, "bylaws", "estatuto.docx", apitest.ZIP, "")
	require.Equal(t, "document.invalid_file", res.ErrorCode())

	// A 51 MB PDF (real PDF header, over the 52428800-byte limit).
	big := make([]byte, 51<<20)
	copy(big, apitest.PDF)
	res = upload(admin, "bylaws", "estatuto.pdf", big, "")
	require.Equal(t, http.StatusRequestEntityTooLarge, res.Status, string(res.Body))
	require.Equal(t, "document.invalid_file", res.ErrorCode())
	require.Equal(t, i18n.T(i18n.ES, "document.invalid_file"), res.ErrorMessage())

	// Exactly 52428800 bytes is not "under" the limit either.
	res = upload(admin, "bylaws", "estatuto.pdf", big[:document.MaxFileBytes], "")
	require.Equal(t, "document.invalid_file", res.ErrorCode())

	// A document type the country does not require.
	res = upload(admin, "cnpj_card", "cnpj.pdf", apitest.PDF, "")
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Equal(t, "validation_failed", res.ErrorCode())

	rows, objects := stored(t, s, admin.OrgID)
	require.Zero(t, rows, "no attachment row")
	require.Zero(t, objects, "no stored object")
	o := getOrg(t, admin)
	require.Equal(t, document.AccountNoDocuments, o.Account.State)
	require.Empty(t, o.Documents["bylaws"].Attachments)
}

func TestUploadListDownloadAndLimit(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "AR")

	files := map[string][]byte{"p1.pdf": apitest.PDF, "p2.png": apitest.PNG, "p3.jpg": apitest.JPEG, "p4.doc": apitest.DOC, "p5.docx": apitest.DOCX}
	for name, content := range files {
		res := upload(admin, "bylaws", name, content, "")
		require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	}
	res := upload(admin, "bylaws", "p6.pdf", apitest.PDF, "")
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "document.too_many_files", res.ErrorCode())

	o := getOrg(t, admin)
	d := o.Documents["bylaws"]
	require.Equal(t, document.StatusPending, d.Status)
	require.Len(t, d.Attachments, document.MaxFilesPerType)
	require.True(t, d.Actions.RequestReview)
	require.True(t, d.Actions.DeleteAttachment)
	require.NotEmpty(t, d.Label)
	require.NotEmpty(t, d.HelpCenterURL)
	require.Equal(t, []string{"bylaws", "cuit_certificate", "authorities_designation", "representative_id"}, o.DocumentTypes)

	var pdf document.Attachment
	for _, a := range d.Attachments {
		require.Equal(t, document.AttachmentUploaded, a.Status)
		if a.OriginalFilename == "p1.pdf" {
			pdf = a
		}
	}
	require.Equal(t, document.ManageURL(pdf.ID), pdf.URL)
	file := admin.Do(http.MethodGet, pdf.URL, nil, "")
	require.Equal(t, http.StatusOK, file.Status)
	require.Equal(t, apitest.PDF, file.Body)
	require.Equal(t, "application/pdf", file.Header.Get("Content-Type"))
	require.Contains(t, file.Header.Get("Content-Disposition"), "attachment")

	// Delete frees a slot.
	res = admin.JSON(http.MethodDelete, "/manage/api/accounts/documents/"+pdf.ID.String(), nil)
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	rows, objects := stored(t, s, admin.OrgID)
	require.Equal(t, 4, rows)
	require.Equal(t, 4, objects)
	require.Equal(t, http.StatusNotFound, admin.Do(http.MethodGet, pdf.URL, nil, "").Status)
}

func TestDeleteRefusedWhenReadyForReview(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "CO")

	res := upload(admin, "rut_certificate", "rut.pdf", apitest.PDF, "")
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var o org
	res.Decode(t, &o)
	id := o.Documents["rut_certificate"].Attachments[0].ID

	res = admin.JSON(http.MethodPost, "/manage/api/accounts/documents/review", map[string]string{"document_type": "rut_certificate"})
	require.Equal(t, http.StatusOK, res.Status, string(res.Body))
	res.Decode(t, &o)
	d := o.Documents["rut_certificate"]
	require.Equal(t, document.StatusReadyForReview, d.Status)
	require.Equal(t, "in_verification", d.Banner)
	require.False(t, d.Actions.DeleteAttachment)
	require.Equal(t, document.AccountNoDocuments, o.Account.State, "other required types are missing")

	res = admin.JSON(http.MethodDelete, "/manage/api/accounts/documents/"+id.String(), nil)
	require.Equal(t, http.StatusConflict, res.Status)
	require.Equal(t, "document.locked", res.ErrorCode())
	res = upload(admin, "rut_certificate", "rut2.pdf", apitest.PDF, "")
	require.Equal(t, http.StatusConflict, res.Status)
	rows, objects := stored(t, s, admin.OrgID)
	require.Equal(t, 1, rows)
	require.Equal(t, 1, objects)

	// Review of a type without files is refused.
	res = admin.JSON(http.MethodPost, "/manage/api/accounts/documents/review", map[string]string{"document_type": "existence_certificate"})
	require.Equal(t, http.StatusUnprocessableEntity, res.Status)
	require.Equal(t, "document.no_attachments", res.ErrorCode())
}

func TestAnotherOrganisationCannotSeeOrDeleteAttachments(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	owner := s.NewOrgAdmin(t, "AR")
	other := s.NewOrgAdmin(t, "AR")
	foreign := s.NewOrgAdmin(t, "MX") // another shard

	res := upload(owner, "bylaws", "estatuto.pdf", apitest.PDF, "")
	require.Equal(t, http.StatusCreated, res.Status, string(res.Body))
	var o org
	res.Decode(t, &o)
	a := o.Documents["bylaws"].Attachments[0]

	for _, c := range []*apitest.Client{other, foreign} {
		got := c.Do(http.MethodGet, a.URL, nil, "")
		require.Equal(t, http.StatusNotFound, got.Status)
		require.NotContains(t, string(got.Body), "estatuto")
		require.Equal(t, http.StatusNotFound, c.JSON(http.MethodDelete, "/manage/api/accounts/documents/"+a.ID.String(), nil).Status)
		// Picking the owner's organisation by header is answered like an unknown one.
		got = c.Do(http.MethodGet, a.URL, nil, "", "X-Organization-Id", owner.OrgID.String())
		require.Equal(t, http.StatusNotFound, got.Status)
		require.NotContains(t, string(c.JSON(http.MethodGet, "/manage/api/organization", nil).Body), a.ID.String())
	}
	// Without a session: 401; without the CSRF token a delete is refused before anything else.
	anon := s.Server.Client()
	r, err := anon.Get(s.Server.URL + a.URL)
	require.NoError(t, err)
	r.Body.Close()
	require.Equal(t, http.StatusUnauthorized, r.StatusCode)

	// An operator may view but not manage documents.
	op := s.NewUser(t, "operator")
	s.AddMember(t, op, owner.OrgID, "operator")
	require.Equal(t, http.StatusOK, op.Do(http.MethodGet, a.URL, nil, "").Status)
	require.Equal(t, http.StatusForbidden, op.JSON(http.MethodDelete, "/manage/api/accounts/documents/"+a.ID.String(), nil).Status)
	require.Equal(t, http.StatusForbidden, upload(op, "bylaws", "x.pdf", apitest.PDF, "").Status)

	rows, objects := stored(t, s, owner.OrgID)
	require.Equal(t, 1, rows)
	require.Equal(t, 1, objects)
}

// A chunked upload (no Content-Length) over the limit is cut off while reading and still refused
// with document.invalid_file, storing nothing.
func TestChunkedOversizedUploadRefused(t *testing.T) {
	t.Parallel()
	s := apitest.Start(t)
	admin := s.NewOrgAdmin(t, "BR")
	pr, pw := io.Pipe()
	go func() {
		_, _ = pw.Write([]byte("--b\r\nContent-Disposition: form-data; name=\"document_type\"\r\n\r\nbylaws\r\n" +
			"--b\r\nContent-Disposition: form-data; name=\"file\"; filename=\"estatuto.pdf\"\r\nContent-Type: application/pdf\r\n\r\n"))
		_, _ = pw.Write(apitest.PDF)
		chunk := make([]byte, 1<<20)
		for range 52 {
			if _, err := pw.Write(chunk); err != nil {
				return
			}
		}
		_, _ = pw.Write([]byte("\r\n--b--\r\n"))
		_ = pw.Close()
	}()
	res := admin.Do(http.MethodPost, "/manage/api/accounts/documents", pr, "multipart/form-data; boundary=b")
	require.Equal(t, "document.invalid_file", res.ErrorCode(), string(res.Body))
	rows, objects := stored(t, s, admin.OrgID)
	require.Zero(t, rows)
	require.Zero(t, objects)
}
