// Package document holds the legal documents an organisation uploads for verification: the
// country's required types (reference data), uploads checked by name and content and stored in
// object storage, requests for review, staff decisions, and the account state they add up to
// (organisation-and-account §2–§5).
package document

import (
	"context"
	"embed"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math"
	"net/http"
	"path/filepath"
	"strings"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/tenants"
)

//go:embed sql/*.sql
var sqlFS embed.FS

var queries = tenants.MustLoadQueries(sqlFS, "sql")

// Limits (§5, §9).
const (
	// MaxFileBytes: a document must be under 52428800 bytes (50 MB).
	MaxFileBytes = 52428800
	// MaxFilesPerType caps the files (pages) of one document type; the spec leaves it open.
	MaxFilesPerType = 5
	// ReviewTarget is the verification target (§9: under 48 hours).
	ReviewTarget = 48 * time.Hour
)

// Document statuses (§4). pending: files are being gathered, not yet sent for review.
const (
	StatusPending        = "pending"
	StatusReadyForReview = "ready_for_review"
	StatusApproved       = "approved"
	StatusRejected       = "rejected"
)

// Attachment statuses.
const (
	AttachmentUploaded = "uploaded"
	AttachmentApproved = "approved"
	AttachmentRejected = "rejected"
)

// Account states (§4).
const (
	AccountNoDocuments         = "no_documents"
	AccountDocumentsWithErrors = "documents_with_errors"
	AccountVerifying           = "verifying"
	AccountEnabled             = "enabled"
)

// Requirement is a document type a country requires (§3 Document info).
type Requirement struct {
	Type          string `json:"type"`
	Label         string `json:"label"`
	Description   string `json:"description"`
	HelpCenterURL string `json:"help_center_url"`
}

// Attachment is one uploaded file.
type Attachment struct {
	ID               uuid.UUID `json:"id"`
	URL              string    `json:"url"`
	OriginalFilename string    `json:"original_filename"`
	Status           string    `json:"status"`
	ContentType      string    `json:"content_type"`
	SizeBytes        int64     `json:"size_bytes"`
	CreatedAt        time.Time `json:"created_at"`
	documentType     string
}

// RejectedReason is shown to the organisation as rejected_reason.label.
type RejectedReason struct {
	Label string `json:"label"`
}

// Actions say which buttons a document's card offers (§4 card rules), so every client agrees.
type Actions struct {
	Upload           bool `json:"upload"`
	UploadMore       bool `json:"upload_more"`
	UploadAgain      bool `json:"upload_again"`
	RequestReview    bool `json:"request_review"`
	DeleteAttachment bool `json:"delete_attachment"`
}

// Document is a required document type with the organisation's files and status.
type Document struct {
	Requirement
	Status         string          `json:"status"`
	RejectedReason *RejectedReason `json:"rejected_reason"`
	Attachments    []Attachment    `json:"attachments"`
	// Banner: in_verification (yellow), approved (green), rejected (red) or "" (§4).
	Banner      string     `json:"banner"`
	Actions     Actions    `json:"actions"`
	SubmittedAt *time.Time `json:"submitted_at"`
	ReviewedAt  *time.Time `json:"reviewed_at"`
}

// Account is the account state with the review clock (§4).
type Account struct {
	State       string     `json:"state"`
	RequestedAt *time.Time `json:"review_requested_at,omitempty"`
	DueAt       *time.Time `json:"review_due_at,omitempty"`
	HoursLeft   *int       `json:"hours_left,omitempty"`
}

// Overview is an organisation's documents keyed by type, their order, and the account state.
type Overview struct {
	Documents     map[string]Document `json:"documents"`
	DocumentTypes []string            `json:"document_types"`
	Account       Account             `json:"account"`
}

// Tenants is what the service needs from the tenancy layer.
type Tenants interface {
	ForOrganization(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error)
	Directory() *pgxpool.Pool
}

// Onboarding is the organisation's onboarding workflow, as the service drives it.
type Onboarding interface {
	// DocumentsReady reports every required document sent for review (step documents).
	DocumentsReady(ctx context.Context, orgID uuid.UUID) error
}

// Service reads and writes documents in the organisation's shard and files in the bucket.
type Service struct {
	tenants    Tenants
	bucket     *blob.Bucket
	onboarding Onboarding
	now        func() time.Time
}

// NewService builds the service.
func NewService(t Tenants, b *blob.Bucket, o Onboarding) *Service {
	return &Service{tenants: t, bucket: b, onboarding: o, now: time.Now}
}

// Scope resolves an organisation's shard.
func (s *Service) Scope(ctx context.Context, orgID uuid.UUID) (tenants.Scope, error) {
	scope, err := s.tenants.ForOrganization(ctx, orgID)
	if errors.Is(err, tenants.ErrUnknownOrganization) {
		return scope, apierror.NotFound()
	}
	return scope, err
}

// Requirements lists a country's required documents in the request's language.
func (s *Service) Requirements(ctx context.Context, scope tenants.Scope, lang i18n.Lang) ([]Requirement, error) {
	rows, err := scope.Query(ctx, queries.Get("Requirements"), scope.Country)
	if err != nil {
		return nil, err
	}
	return pgx.CollectRows(rows, func(r pgx.CollectableRow) (Requirement, error) {
		var q Requirement
		var labelKey, descKey string
		err := r.Scan(&q.Type, &labelKey, &descKey, &q.HelpCenterURL)
		q.Label, q.Description = i18n.T(lang, labelKey), i18n.T(lang, descKey)
		return q, err
	})
}

// URLFunc makes an attachment's authorised download URL.
type URLFunc func(id uuid.UUID) string

// ManageURL is the organisation's own download route.
func ManageURL(id uuid.UUID) string { return "/manage/api/accounts/documents/" + id.String() + "/file" }

type docRow struct {
	status, reason      string
	submitted, reviewed *time.Time
}

// Overview builds the documents by type and the account state.
func (s *Service) Overview(ctx context.Context, scope tenants.Scope, lang i18n.Lang, url URLFunc) (Overview, error) {
	reqs, err := s.Requirements(ctx, scope, lang)
	if err != nil {
		return Overview{}, err
	}
	docs := map[string]docRow{}
	rows, err := scope.Query(ctx, queries.Get("Documents"), scope.OrgID)
	if err != nil {
		return Overview{}, err
	}
	for rows.Next() {
		var t string
		var d docRow
		if err := rows.Scan(&t, &d.status, &d.reason, &d.submitted, &d.reviewed); err != nil {
			rows.Close()
			return Overview{}, err
		}
		docs[t] = d
	}
	if err := rows.Err(); err != nil {
		return Overview{}, err
	}
	rows, err = scope.Query(ctx, queries.Get("Attachments"), scope.OrgID)
	if err != nil {
		return Overview{}, err
	}
	atts, err := pgx.CollectRows(rows, func(r pgx.CollectableRow) (Attachment, error) {
		var a Attachment
		err := r.Scan(&a.ID, &a.documentType, &a.OriginalFilename, &a.ContentType, &a.SizeBytes, &a.Status, &a.CreatedAt)
		a.URL = url(a.ID)
		return a, err
	})
	if err != nil {
		return Overview{}, err
	}
	ov := Overview{Documents: map[string]Document{}, DocumentTypes: []string{}}
	for _, q := range reqs {
		d := Document{Requirement: q, Status: StatusPending, Attachments: []Attachment{}}
		if row, ok := docs[q.Type]; ok {
			d.Status, d.SubmittedAt, d.ReviewedAt = row.status, row.submitted, row.reviewed
			if row.status == StatusRejected && row.reason != "" {
				d.RejectedReason = &RejectedReason{Label: row.reason}
			}
		}
		for _, a := range atts {
			if a.documentType == q.Type {
				d.Attachments = append(d.Attachments, a)
			}
		}
		d.Banner, d.Actions = cardOf(d)
		ov.Documents[q.Type] = d
		ov.DocumentTypes = append(ov.DocumentTypes, q.Type)
	}
	ov.Account, err = s.account(ctx, scope, ov)
	return ov, err
}

// cardOf applies §4's card rules.
func cardOf(d Document) (string, Actions) {
	live := 0
	for _, a := range d.Attachments {
		if a.Status != AttachmentRejected {
			live++
		}
	}
	locked := d.Status == StatusReadyForReview || d.Status == StatusApproved
	var banner string
	switch {
	case d.Status == StatusReadyForReview:
		banner = "in_verification"
	case d.Status == StatusApproved:
		banner = "approved"
	case d.Status == StatusRejected && live == 0:
		banner = "rejected"
	}
	var a Actions
	switch {
	case locked:
	case live > 0:
		a.RequestReview = true
		a.UploadMore = live < MaxFilesPerType
	case d.Status == StatusRejected:
		a.UploadAgain = true
	default:
		a.Upload = true
	}
	a.DeleteAttachment = !locked && len(d.Attachments) > 0
	return banner, a
}

func (s *Service) account(ctx context.Context, scope tenants.Scope, ov Overview) (Account, error) {
	var status string
	if err := scope.QueryRow(ctx, queries.Get("OrganizationStatus"), scope.OrgID).Scan(&status); err != nil {
		if errors.Is(err, pgx.ErrNoRows) {
			return Account{}, apierror.NotFound()
		}
		return Account{}, err
	}
	if status == "enabled" {
		return Account{State: AccountEnabled}, nil
	}
	ready := len(ov.DocumentTypes) > 0
	for _, t := range ov.DocumentTypes {
		switch ov.Documents[t].Status {
		case StatusRejected:
			return Account{State: AccountDocumentsWithErrors}, nil
		case StatusReadyForReview, StatusApproved:
		default:
			ready = false
		}
	}
	if !ready {
		return Account{State: AccountNoDocuments}, nil
	}
	acc := Account{State: AccountVerifying}
	var requested time.Time
	var closed *time.Time
	err := s.tenants.Directory().QueryRow(ctx, queries.Get("GetReview"), scope.OrgID).Scan(&requested, &closed)
	if err != nil && !errors.Is(err, pgx.ErrNoRows) {
		return acc, err
	}
	if err == nil {
		acc.RequestedAt = &requested
		due := requested.Add(ReviewTarget)
		acc.DueAt = &due
		h := HoursLeft(due, s.now())
		acc.HoursLeft = &h
	}
	return acc, nil
}

// HoursLeft is the whole hours (rounded up, never negative) until due.
func HoursLeft(due, now time.Time) int {
	left := due.Sub(now).Hours()
	if left <= 0 {
		return 0
	}
	return int(math.Ceil(left))
}

// Upload is a file to add to a document type.
type Upload struct {
	DocumentType string
	Filename     string
	Size         int64
	File         interface {
		io.Reader
		io.ReaderAt
		io.Seeker
	}
}

// InvalidFile is the §5 invalid_file error; detail names the field's reason.
func InvalidFile(status int, detail string) *apierror.Error {
	return &apierror.Error{Status: status, Code: "invalid_file", Fields: map[string]string{"file": detail}}
}

func (s *Service) requirement(ctx context.Context, scope tenants.Scope, docType string) error {
	reqs, err := s.Requirements(ctx, scope, i18n.Default)
	if err != nil {
		return err
	}
	for _, r := range reqs {
		if r.Type == docType {
			return nil
		}
	}
	return apierror.Validation(map[string]string{"document_type": "invalid_document_type"})
}

// Add validates and stores a file. A refused file leaves nothing behind: it is checked before
// anything is written. The object is uploaded outside any transaction (an upload takes as long as
// the storage does; a transaction holding the document's lock must not), then the row is written
// under the lock with the checks made again; a failed write deletes the object.
func (s *Service) Add(ctx context.Context, scope tenants.Scope, up Upload) (uuid.UUID, error) {
	if err := s.requirement(ctx, scope, up.DocumentType); err != nil {
		return uuid.Nil, err
	}
	if up.Size <= 0 || up.Size >= MaxFileBytes {
		return uuid.Nil, InvalidFile(http.StatusRequestEntityTooLarge, "invalid_file_size")
	}
	kind, ok := KindOf(up.Filename, DocumentExtensions, up.File, up.Size)
	if !ok {
		return uuid.Nil, InvalidFile(http.StatusUnprocessableEntity, "invalid_file_type")
	}
	if _, err := up.File.Seek(0, io.SeekStart); err != nil {
		return uuid.Nil, err
	}
	// Refuse early what the locked check would refuse, so a locked document costs no upload.
	if err := canAdd(ctx, scope, scope.OrgID, up.DocumentType); err != nil {
		return uuid.Nil, err
	}
	id := uuid.New()
	key := fmt.Sprintf("organizations/%s/documents/%s/%s%s", scope.OrgID, up.DocumentType, id, extensionOf(kind))
	opts := &blob.WriterOptions{ContentType: ContentTypes[kind], ContentDisposition: "attachment"}
	if err := s.bucket.Upload(ctx, key, io.LimitReader(up.File, MaxFileBytes), opts); err != nil {
		return uuid.Nil, fmt.Errorf("store file: %w", err)
	}
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		if err := canAdd(ctx, tx, scope.OrgID, up.DocumentType); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, queries.Get("InsertAttachment"), scope.OrgID, id, up.DocumentType, key,
			cleanFilename(up.Filename), ContentTypes[kind], up.Size)
		return err
	})
	if err != nil {
		s.deleteBlob(ctx, key)
		return uuid.Nil, err
	}
	return id, nil
}

// canAdd refuses a file for a document sent for review or approved, or one with its files at the
// limit. In a transaction, the document's row stays locked until it commits.
func canAdd(ctx context.Context, q interface {
	QueryRow(context.Context, string, ...any) pgx.Row
}, orgID uuid.UUID, docType string) error {
	var status string
	if err := q.QueryRow(ctx, queries.Get("LockDocument"), orgID, docType).Scan(&status); err != nil {
		return err
	}
	if status == StatusReadyForReview || status == StatusApproved {
		return apierror.New(http.StatusConflict, "document_locked")
	}
	var n int
	if err := q.QueryRow(ctx, queries.Get("CountActiveAttachments"), orgID, docType).Scan(&n); err != nil {
		return err
	}
	if n >= MaxFilesPerType {
		return apierror.New(http.StatusConflict, "too_many_files", MaxFilesPerType)
	}
	return nil
}

func extensionOf(kind string) string {
	if kind == KindJPEG {
		return ".jpg"
	}
	return "." + kind
}

// cleanFilename keeps the base name a user gave, without path parts or control characters.
func cleanFilename(name string) string {
	name = filepath.Base(strings.ReplaceAll(name, "\\", "/"))
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f || r == '"' {
			return -1
		}
		return r
	}, name)
	if len(name) > 255 {
		name = name[len(name)-255:]
	}
	return name
}

func (s *Service) deleteBlob(ctx context.Context, key string) {
	if err := s.bucket.Delete(context.WithoutCancel(ctx), key); err != nil && gcerrors.Code(err) != gcerrors.NotFound {
		slog.ErrorContext(ctx, "orphan document object", "key", key, "error", err)
	}
}

// Delete removes an attachment unless its document is ready_for_review or approved (§4).
func (s *Service) Delete(ctx context.Context, scope tenants.Scope, id uuid.UUID) error {
	var key string
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		var docType, status string
		err := tx.QueryRow(ctx, queries.Get("GetAttachmentForUpdate"), scope.OrgID, id).Scan(&docType, &key, &status)
		if errors.Is(err, pgx.ErrNoRows) {
			return apierror.NotFound()
		}
		if err != nil {
			return err
		}
		if status == StatusReadyForReview || status == StatusApproved {
			return apierror.New(http.StatusConflict, "document_locked")
		}
		_, err = tx.Exec(ctx, queries.Get("DeleteAttachment"), scope.OrgID, id)
		return err
	})
	if err != nil {
		return err
	}
	// The row is gone; a failure here leaves an unreachable object, logged for clean-up.
	s.deleteBlob(ctx, key)
	return nil
}

// RequestReview marks a document type ready_for_review. Calling it again for a type already under
// review succeeds, so a retry after a failed workflow signal finishes the job. When every required
// type is ready (or approved), the review opens in the directory and the onboarding workflow hears
// that the documents step is complete.
func (s *Service) RequestReview(ctx context.Context, scope tenants.Scope, docType string) error {
	if err := s.requirement(ctx, scope, docType); err != nil {
		return err
	}
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, queries.Get("LockDocument"), scope.OrgID, docType).Scan(&status)
		if err != nil {
			return err
		}
		switch status {
		case StatusReadyForReview:
			return nil
		case StatusApproved:
			return apierror.New(http.StatusConflict, "document_locked")
		}
		var n int
		if err := tx.QueryRow(ctx, queries.Get("CountActiveAttachments"), scope.OrgID, docType).Scan(&n); err != nil {
			return err
		}
		if n == 0 {
			return apierror.New(http.StatusUnprocessableEntity, "no_attachments")
		}
		_, err = tx.Exec(ctx, queries.Get("MarkReadyForReview"), scope.OrgID, docType)
		return err
	})
	if err != nil {
		return err
	}
	ov, err := s.Overview(ctx, scope, i18n.Default, ManageURL)
	if err != nil {
		return err
	}
	if !AllSubmitted(ov) {
		return nil
	}
	if _, err := s.tenants.Directory().Exec(ctx, queries.Get("OpenReview"), scope.OrgID); err != nil {
		return err
	}
	return s.onboarding.DocumentsReady(ctx, scope.OrgID)
}

// AllSubmitted reports every required document ready_for_review or approved.
func AllSubmitted(ov Overview) bool {
	if len(ov.DocumentTypes) == 0 {
		return false
	}
	for _, t := range ov.DocumentTypes {
		if st := ov.Documents[t].Status; st != StatusReadyForReview && st != StatusApproved {
			return false
		}
	}
	return true
}

// AllApproved reports every required document approved.
func AllApproved(ov Overview) bool {
	if len(ov.DocumentTypes) == 0 {
		return false
	}
	for _, t := range ov.DocumentTypes {
		if ov.Documents[t].Status != StatusApproved {
			return false
		}
	}
	return true
}

// File is an attachment opened for reading.
type File struct {
	Reader           io.ReadCloser
	ContentType      string
	OriginalFilename string
	Size             int64
}

// Open opens an attachment of the scope's organisation; another organisation's id is not found.
func (s *Service) Open(ctx context.Context, scope tenants.Scope, id uuid.UUID) (File, error) {
	var f File
	var docType, key, status string
	err := scope.QueryRow(ctx, queries.Get("GetAttachment"), scope.OrgID, id).
		Scan(&docType, &key, &f.OriginalFilename, &f.ContentType, &f.Size, &status)
	if errors.Is(err, pgx.ErrNoRows) {
		return f, apierror.NotFound()
	}
	if err != nil {
		return f, err
	}
	r, err := s.bucket.NewReader(ctx, key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return f, apierror.NotFound()
	}
	if err != nil {
		return f, err
	}
	f.Reader = r
	return f, nil
}

// Decide records a staff decision on a document type: approve (from ready_for_review) or reject
// with a reason (from ready_for_review or approved). A rejection closes the open review: the
// organisation has work to do.
func (s *Service) Decide(ctx context.Context, scope tenants.Scope, docType string, approve bool, reason string) error {
	if err := s.requirement(ctx, scope, docType); err != nil {
		return err
	}
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		var status string
		err := tx.QueryRow(ctx, queries.Get("LockDocument"), scope.OrgID, docType).Scan(&status)
		if err != nil {
			return err
		}
		ok := status == StatusReadyForReview || (!approve && status == StatusApproved)
		if !ok {
			return apierror.New(http.StatusConflict, "document_not_under_review")
		}
		next, attStatus, why := StatusApproved, AttachmentApproved, any(nil)
		if !approve {
			next, attStatus, why = StatusRejected, AttachmentRejected, reason
		}
		if _, err := tx.Exec(ctx, queries.Get("SetDecision"), scope.OrgID, docType, next, why); err != nil {
			return err
		}
		_, err = tx.Exec(ctx, queries.Get("SetAttachmentsStatus"), scope.OrgID, docType, attStatus)
		return err
	})
	if err != nil {
		return err
	}
	if !approve {
		_, err = s.tenants.Directory().Exec(ctx, queries.Get("CloseReview"), scope.OrgID)
	}
	return err
}

// CloseReview closes the organisation's open review (the account was enabled).
func (s *Service) CloseReview(ctx context.Context, orgID uuid.UUID) error {
	_, err := s.tenants.Directory().Exec(ctx, queries.Get("CloseReview"), orgID)
	return err
}
