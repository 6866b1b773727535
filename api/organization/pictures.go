package organization

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"
	"gocloud.dev/blob"
	"gocloud.dev/gcerrors"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/document"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// The organisation's identity and pictures (organisation-and-account §3 Organisation, §7): its legal
// name, the categories it works in, a cover and a gallery of its work.

const (
	MaxLegalName  = 200
	MaxCategories = 5
	MaxGallery    = 12
	PicturesURL   = "/manage/api/organization/pictures/"
)

// ImageFor are what a picture is for: the cover of the organisation's pages (one; a new one
// replaces it) and the gallery of its work.
var ImageFor = []string{"cover", "gallery"}

// Picture is one of the organisation's pictures.
type Picture struct {
	ID       uuid.UUID `json:"id"`
	ImageFor string    `json:"image_for"`
	URL      string    `json:"url"`
}

// identity completes o with the legal name, categories and pictures.
func (s *Service) identity(ctx context.Context, scope tenants.Scope, o *Organization) error {
	id, err := scope.Store().OrganizationIdentity(ctx, scope.OrgID)
	if err != nil {
		return err
	}
	o.LegalName, o.Categories = id.LegalName, id.Categories
	rows, err := scope.Store().OrganizationPictures(ctx, scope.OrgID)
	if err != nil {
		return err
	}
	o.Pictures = make([]Picture, len(rows))
	for i, r := range rows {
		o.Pictures[i] = Picture{ID: r.ID, ImageFor: r.ImageFor, URL: PicturesURL + r.ID.String()}
	}
	return nil
}

// checkIdentity validates the legal name and categories of an update into fields.
func checkIdentity(ctx context.Context, q *sharddb.Queries, u *Update, fields map[string]string) error {
	if u.LegalName != nil {
		*u.LegalName = strings.TrimSpace(*u.LegalName)
		if utf8.RuneCountInString(*u.LegalName) > MaxLegalName {
			fields["legal_name"] = "organization.legal_name_too_long"
		}
	}
	if u.Categories == nil {
		return nil
	}
	known, err := q.OrganizationCategories(ctx)
	if err != nil {
		return err
	}
	seen := map[string]bool{}
	for _, c := range *u.Categories {
		if !slices.Contains(known, c) || seen[c] {
			fields["categories"] = "organization.invalid_categories"
		}
		seen[c] = true
	}
	if len(*u.Categories) > MaxCategories {
		fields["categories"] = "organization.invalid_categories"
	}
	return nil
}

// storeImage validates an image by name and content (jpeg, jpg, png or gif under 5 MB) and stores it
// under dir; it answers the object's key and content type.
func (s *Service) storeImage(ctx context.Context, scope tenants.Scope, dir, filename string, size int64, f io.ReaderAt,
	invalid func(status int) *apierror.Error) (string, string, error) {
	if size <= 0 || size >= MaxLogoBytes {
		return "", "", invalid(http.StatusRequestEntityTooLarge)
	}
	kind, ok := document.KindOf(filename, document.ImageExtensions, f, size)
	if !ok {
		return "", "", invalid(http.StatusUnprocessableEntity)
	}
	ext := "." + kind
	if kind == document.KindJPEG {
		ext = ".jpg"
	}
	key := fmt.Sprintf("organizations/%s/%s/%s%s", scope.OrgID, dir, uuid.New(), ext)
	contentType := document.ContentTypes[kind]
	if err := s.bucket.Upload(ctx, key, io.NewSectionReader(f, 0, size), &blob.WriterOptions{ContentType: contentType}); err != nil {
		return "", "", fmt.Errorf("store image: %w", err)
	}
	return key, contentType, nil
}

// AddPicture stores a picture for imageFor: a cover replaces the previous one, the gallery holds
// up to MaxGallery.
func (s *Service) AddPicture(ctx context.Context, scope tenants.Scope, imageFor, filename string, size int64, f io.ReaderAt) error {
	if !slices.Contains(ImageFor, imageFor) {
		return apierror.Validation(map[string]string{"image_for": "organization.invalid_image_for"})
	}
	if imageFor == "gallery" {
		n, err := scope.Store().CountOrganizationPictures(ctx, sharddb.CountOrganizationPicturesParams{OrganizationID: scope.OrgID, ImageFor: imageFor})
		if err != nil {
			return err
		}
		if n >= MaxGallery {
			return &apierror.Error{Status: http.StatusUnprocessableEntity, Code: "organization.gallery_full",
				Fields: map[string]string{"picture": "organization.gallery_full"}}
		}
	}
	key, contentType, err := s.storeImage(ctx, scope, "pictures", filename, size, f, invalidPicture)
	if err != nil {
		return err
	}
	var replaced []string
	err = scope.Tx(ctx, func(tx pgx.Tx) error {
		replaced = nil // the transaction may run again
		q := sharddb.Store(tx)
		if imageFor == "cover" {
			rows, err := q.OrganizationPictures(ctx, scope.OrgID)
			if err != nil {
				return err
			}
			for _, r := range rows {
				if r.ImageFor == "cover" {
					if _, err := q.DeleteOrganizationPicture(ctx, sharddb.DeleteOrganizationPictureParams{OrganizationID: scope.OrgID, ID: r.ID}); err != nil {
						return err
					}
					replaced = append(replaced, r.Key)
				}
			}
		}
		return q.AddOrganizationPicture(ctx, sharddb.AddOrganizationPictureParams{OrganizationID: scope.OrgID, ID: uuid.New(),
			ImageFor: imageFor, Key: key, ContentType: contentType})
	})
	if err != nil {
		_ = s.bucket.Delete(context.WithoutCancel(ctx), key)
		return err
	}
	for _, k := range replaced {
		_ = s.bucket.Delete(context.WithoutCancel(ctx), k)
	}
	return nil
}

// DeletePicture removes one of the organisation's pictures; another organisation's id is not found.
func (s *Service) DeletePicture(ctx context.Context, scope tenants.Scope, id uuid.UUID) error {
	key, err := scope.Store().DeleteOrganizationPicture(ctx, sharddb.DeleteOrganizationPictureParams{OrganizationID: scope.OrgID, ID: id})
	if err != nil {
		return err
	}
	_ = s.bucket.Delete(context.WithoutCancel(ctx), key)
	return nil
}

// Picture opens one of the organisation's pictures.
func (s *Service) Picture(ctx context.Context, scope tenants.Scope, id uuid.UUID) (document.File, error) {
	rows, err := scope.Store().OrganizationPictures(ctx, scope.OrgID)
	if err != nil {
		return document.File{}, err
	}
	i := slices.IndexFunc(rows, func(r sharddb.OrganizationPicturesRow) bool { return r.ID == id })
	if i < 0 {
		return document.File{}, dberr.ErrNotFound
	}
	r, err := s.bucket.NewReader(ctx, rows[i].Key, nil)
	if gcerrors.Code(err) == gcerrors.NotFound {
		return document.File{}, apierror.NotFound()
	}
	if err != nil {
		return document.File{}, err
	}
	return document.File{Reader: r, ContentType: rows[i].ContentType, Size: r.Size()}, nil
}

func invalidPicture(status int) *apierror.Error {
	return &apierror.Error{Status: status, Code: "organization.invalid_picture", Fields: map[string]string{"picture": "organization.invalid_picture"}}
}

func init() {
	i18n.Register(i18n.Catalog{
		"organization.legal_name_too_long": {
			i18n.ES: "La razón social puede tener hasta 200 caracteres.",
			i18n.EN: "The legal name can have up to 200 characters.",
			i18n.PT: "A razão social pode ter até 200 caracteres.",
		},
		"organization.invalid_categories": {
			i18n.ES:   "Elige hasta 5 categorías de la lista.",
			i18n.ESAR: "Elegí hasta 5 categorías de la lista.",
			i18n.EN:   "Choose up to 5 categories from the list.",
			i18n.PT:   "Escolha até 5 categorias da lista.",
		},
		"organization.invalid_image_for": {
			i18n.ES:   "Indica si la imagen es la portada o parte de la galería.",
			i18n.ESAR: "Indicá si la imagen es la portada o parte de la galería.",
			i18n.EN:   "Say whether the picture is the cover or part of the gallery.",
			i18n.PT:   "Indique se a imagem é a capa ou parte da galeria.",
		},
		"organization.invalid_picture": {
			i18n.ES: "La imagen debe ser JPEG, JPG, PNG o GIF de menos de 5 MB.",
			i18n.EN: "The picture must be a JPEG, JPG, PNG or GIF image under 5 MB.",
			i18n.PT: "A imagem deve ser JPEG, JPG, PNG ou GIF com menos de 5 MB.",
		},
		"organization.gallery_full": {
			i18n.ES:   "La galería admite hasta 12 imágenes: elimina alguna para agregar otra.",
			i18n.ESAR: "La galería admite hasta 12 imágenes: eliminá alguna para agregar otra.",
			i18n.EN:   "The gallery takes up to 12 pictures: delete one to add another.",
			i18n.PT:   "A galeria aceita até 12 imagens: exclua alguma para adicionar outra.",
		},
	})
}
