// Package document holds the legal documents an organisation uploads for verification: the
// country's required types (reference data), uploads checked by name and content and stored in
// object storage, requests for review, staff decisions, and the account state they add up to
// (organisation-and-account §2–§5).
package document

import (
	"context"
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
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/dirdb"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

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
	rows, err := scope.Store().DocumentRequirements(ctx, scope.Country)
	if err != nil {
		return nil, err
	}
	reqs := make([]Requirement, len(rows))
	for i, r := range rows {
		reqs[i] = Requirement{
			Type: r.Type, Label: i18n.T(lang, r.LabelKey), Description: i18n.T(lang, r.DescriptionKey), HelpCenterURL: r.HelpCenterUrl,
		}
	}
	return reqs, nil
}

// URLFunc makes an attachment's authorised download URL.
type URLFunc func(id uuid.UUID) string

// ManageURL is the organisation's own download route.
func ManageURL(id uuid.UUID) string { return "/manage/api/accounts/documents/" + id.String() + "/file" }

// Overview builds the documents by type and the account state.
func (s *Service) Overview(ctx context.Context, scope tenants.Scope, lang i18n.Lang, url URLFunc) (Overview, error) {
	reqs, err := s.Requirements(ctx, scope, lang)
	if err != nil {
		return Overview{}, err
	}
	store := scope.Store()
	rows, err := store.OrganizationDocuments(ctx, scope.OrgID)
	if err != nil {
		return Overview{}, err
	}
	docs := map[string]sharddb.OrganizationDocumentsRow{}
	for _, d := range rows {
		docs[d.Type] = d
	}
	atts, err := store.DocumentAttachments(ctx, scope.OrgID)
	if err != nil {
		return Overview{}, err
	}
	ov := Overview{Documents: map[string]Document{}, DocumentTypes: []string{}}
	for _, q := range reqs {
		d := Document{Requirement: q, Status: StatusPending, Attachments: []Attachment{}}
		if row, ok := docs[q.Type]; ok {
			d.Status, d.SubmittedAt, d.ReviewedAt = row.Status, row.SubmittedAt, row.ReviewedAt
			if row.Status == StatusRejected && row.RejectedReason != "" {
				d.RejectedReason = &RejectedReason{Label: row.RejectedReason}
			}
		}
		for _, a := range atts {
			if a.DocumentType == q.Type {
				d.Attachments = append(d.Attachments, Attachment{
					ID: a.ID, URL: url(a.ID), OriginalFilename: a.OriginalFilename, Status: a.Status,
					ContentType: a.ContentType, SizeBytes: a.SizeBytes, CreatedAt: a.CreatedAt,
				})
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
	org, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
	if err != nil {
		return Account{}, err
	}
	if org.Status == "enabled" {
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
	review, err := s.directory().DocumentReview(ctx, scope.OrgID)
	if err != nil && !errors.Is(err, dberr.ErrNotFound) {
		return acc, err
	}
	if err == nil {
		acc.RequestedAt = &review.RequestedAt
		due := review.RequestedAt.Add(ReviewTarget)
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

// InvalidFile is the §5 invalid file error; reason, when given, is the file field's.
func InvalidFile(status int, reason string) *apierror.Error {
	e := &apierror.Error{Status: status, Code: "document.invalid_file"}
	if reason != "" {
		e.Fields = map[string]string{"file": reason}
	}
	return e
}

// unreadableFile is InvalidFile for an upload body that cannot be read (endpoint.Upload.Invalid).
func unreadableFile(status int) *apierror.Error {
	if status == http.StatusRequestEntityTooLarge {
		return InvalidFile(status, "document.invalid_file_size")
	}
	return InvalidFile(status, "")
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
	return apierror.Validation(map[string]string{"document_type": "document.invalid_document_type"})
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
		return uuid.Nil, InvalidFile(http.StatusRequestEntityTooLarge, "document.invalid_file_size")
	}
	kind, ok := KindOf(up.Filename, DocumentExtensions, up.File, up.Size)
	if !ok {
		return uuid.Nil, InvalidFile(http.StatusUnprocessableEntity, "document.invalid_file_type")
	}
	if _, err := up.File.Seek(0, io.SeekStart); err != nil {
		return uuid.Nil, err
	}
	// Refuse early what the locked check would refuse, so a locked document costs no upload.
	if err := canAdd(ctx, scope.Store(), scope.OrgID, up.DocumentType); err != nil {
		return uuid.Nil, err
	}
	id := uuid.New()
	key := fmt.Sprintf("organizations/%s/documents/%s/%s%s", scope.OrgID, up.DocumentType, id, extensionOf(kind))
	opts := &blob.WriterOptions{ContentType: ContentTypes[kind], ContentDisposition: "attachment"}
	if err := s.bucket.Upload(ctx, key, io.LimitReader(up.File, MaxFileBytes), opts); err != nil {
		return uuid.Nil, fmt.Errorf("store file: %w", err)
	}
	err := scope.Tx(ctx, func(tx pgx.Tx) error {
		store := sharddb.Store(tx)
		if err := canAdd(ctx, store, scope.OrgID, up.DocumentType); err != nil {
			return err
		}
		return store.InsertDocumentAttachment(ctx, sharddb.InsertDocumentAttachmentParams{
			OrganizationID: scope.OrgID, ID: id, DocumentType: up.DocumentType, BlobKey: key,
			OriginalFilename: cleanFilename(up.Filename), ContentType: ContentTypes[kind], SizeBytes: up.Size,
		})
	})
	if err != nil {
		s.deleteBlob(ctx, key)
		return uuid.Nil, err
	}
	return id, nil
}

// canAdd refuses a file for a document sent for review or approved, or one with its files at the
// limit. In a transaction, the document's row stays locked until it commits.
func canAdd(ctx context.Context, store *sharddb.Queries, orgID uuid.UUID, docType string) error {
	status, live, err := lockDocument(ctx, store, orgID, docType)
	if err != nil {
		return err
	}
	if status == StatusReadyForReview || status == StatusApproved {
		return errLocked()
	}
	if live >= MaxFilesPerType {
		return apierror.New(http.StatusConflict, "document.too_many_files", MaxFilesPerType)
	}
	return nil
}

// lockDocument creates the document's row when missing and locks it (until the transaction ends),
// and answers its status and how many of its files are not rejected.
func lockDocument(ctx context.Context, store *sharddb.Queries, orgID uuid.UUID, docType string) (status string, live int64, err error) {
	status, err = store.LockDocument(ctx, sharddb.LockDocumentParams{OrganizationID: orgID, Type: docType})
	if err != nil {
		return "", 0, err
	}
	live, err = store.CountLiveDocumentAttachments(ctx, sharddb.CountLiveDocumentAttachmentsParams{
		OrganizationID: orgID, DocumentType: docType,
	})
	return status, live, err
}

func errLocked() error { return apierror.New(http.StatusConflict, "document.locked") }

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
		store := sharddb.Store(tx)
		att, err := store.DocumentAttachmentForUpdate(ctx, sharddb.DocumentAttachmentForUpdateParams{OrganizationID: scope.OrgID, ID: id})
		if err != nil {
			return err
		}
		if att.Status == StatusReadyForReview || att.Status == StatusApproved {
			return errLocked()
		}
		key = att.BlobKey
		return store.DeleteDocumentAttachment(ctx, sharddb.DeleteDocumentAttachmentParams{OrganizationID: scope.OrgID, ID: id})
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
		store := sharddb.Store(tx)
		status, live, err := lockDocument(ctx, store, scope.OrgID, docType)
		if err != nil {
			return err
		}
		switch {
		case status == StatusReadyForReview:
			return nil
		case status == StatusApproved:
			return errLocked()
		case live == 0:
			return apierror.New(http.StatusUnprocessableEntity, "document.no_attachments")
		}
		return store.MarkDocumentReadyForReview(ctx, sharddb.MarkDocumentReadyForReviewParams{OrganizationID: scope.OrgID, Type: docType})
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
	if err := s.directory().OpenDocumentReview(ctx, scope.OrgID); err != nil {
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
	att, err := scope.Store().DocumentAttachment(ctx, sharddb.DocumentAttachmentParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return File{}, err
	}
	f := File{ContentType: att.ContentType, OriginalFilename: att.OriginalFilename, Size: att.SizeBytes}
	r, err := s.bucket.NewReader(ctx, att.BlobKey, nil)
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
		store := sharddb.Store(tx)
		status, err := store.LockDocument(ctx, sharddb.LockDocumentParams{OrganizationID: scope.OrgID, Type: docType})
		if err != nil {
			return err
		}
		ok := status == StatusReadyForReview || (!approve && status == StatusApproved)
		if !ok {
			return apierror.New(http.StatusConflict, "document.not_under_review")
		}
		decision := sharddb.SetDocumentDecisionParams{OrganizationID: scope.OrgID, Type: docType, Status: StatusApproved}
		attStatus := AttachmentApproved
		if !approve {
			decision.Status, decision.RejectedReason, attStatus = StatusRejected, &reason, AttachmentRejected
		}
		if err := store.SetDocumentDecision(ctx, decision); err != nil {
			return err
		}
		return store.SetDocumentAttachmentsStatus(ctx, sharddb.SetDocumentAttachmentsStatusParams{
			OrganizationID: scope.OrgID, DocumentType: docType, Status: attStatus,
		})
	})
	if err != nil {
		return err
	}
	if !approve {
		return s.CloseReview(ctx, scope.OrgID)
	}
	return nil
}

// CloseReview closes the organisation's open review (the account was enabled).
func (s *Service) CloseReview(ctx context.Context, orgID uuid.UUID) error {
	return s.directory().CloseDocumentReview(ctx, orgID)
}

func (s *Service) directory() *dirdb.Queries { return dirdb.Store(s.tenants.Directory()) }
