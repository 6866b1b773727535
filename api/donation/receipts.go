package donation

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/aporta/aporta/api/apierror"
	"github.com/aporta/aporta/api/authz"
	"github.com/aporta/aporta/api/endpoint"
	"github.com/aporta/aporta/internal/dberr"
	"github.com/aporta/aporta/internal/i18n"
	"github.com/aporta/aporta/internal/receipt"
	"github.com/aporta/aporta/internal/sharddb"
	"github.com/aporta/aporta/tenants"
)

// Receipts as PDF (issue 20): a receipt per approved charge and a donor's yearly summary, for the
// donor (the portal's session, or the signed link of the receipt e-mail) and for the organisation
// (the donation's detail). Each is written in the reader's language; another organisation's or
// another donor's number is 404, as an unknown one.

var errReceiptNotFound = apierror.New(http.StatusNotFound, "receipt.not_found")

// receiptPDF renders receipt number n of the organisation; donor narrows it to that donor's.
func receiptPDF(ctx context.Context, scope tenants.Scope, n int64, donor *uuid.UUID) (string, []byte, error) {
	r, err := scope.Store().ReceiptByNumber(ctx, sharddb.ReceiptByNumberParams{OrganizationID: scope.OrgID, Number: n, DonorID: donor})
	if errors.Is(err, dberr.ErrNotFound) {
		return "", nil, errReceiptNotFound
	}
	if err != nil {
		return "", nil, err
	}
	pdf, err := receipt.Reader{Lang: i18n.FromContext(ctx), Zone: receipt.Zone(r.Timezone)}.PDF(r.Receipt)
	return "receipt-" + receipt.Number(n), pdf, err
}

// summaryPDF renders the donor's summary of the year.
func summaryPDF(ctx context.Context, scope tenants.Scope, donor uuid.UUID, year string) (string, []byte, error) {
	org, err := scope.Store().OrganizationFacts(ctx, scope.OrgID)
	if err != nil {
		return "", nil, err
	}
	zone := receipt.Zone(org.Timezone)
	y, err := strconv.Atoi(year)
	if err != nil || y < 2000 || y > time.Now().In(zone).Year() {
		return "", nil, apierror.New(http.StatusUnprocessableEntity, "receipt.year_invalid")
	}
	from, to := receipt.Year(y, zone)
	rs, err := scope.Store().DonorReceipts(ctx, sharddb.DonorReceiptsParams{OrganizationID: scope.OrgID, DonorID: donor, FromAt: from, ToAt: to})
	if err != nil {
		return "", nil, err
	}
	if len(rs) == 0 {
		return "", nil, apierror.New(http.StatusNotFound, "receipt.year_empty")
	}
	pdf, err := receipt.Reader{Lang: i18n.FromContext(ctx), Zone: zone}.SummaryPDF(y, rs)
	return fmt.Sprintf("donations-%d", y), pdf, err
}

// receiptNumber reads a :number path value; anything else is not a receipt.
func receiptNumber(c *gin.Context) (int64, bool) {
	n, err := strconv.ParseInt(c.Param("number"), 10, 64)
	return n, err == nil && n > 0
}

// answerPDF runs render and writes its document, or its error.
func answerPDF(c *gin.Context, render func(ctx context.Context) (string, []byte, error)) {
	name, pdf, err := render(c.Request.Context())
	if err != nil {
		apierror.Abort(c, err)
		return
	}
	endpoint.SendPDF(c, name, pdf)
}

// Receipt answers the portal's GET /receipts/:number: one of the session donor's receipts.
func (h *PortalHandler) Receipt(c *gin.Context) {
	answerPDF(c, func(ctx context.Context) (string, []byte, error) {
		d, ok := portalDonor(ctx)
		scope, err := authz.Scope(ctx)
		if !ok || err != nil {
			return "", nil, apierror.Unauthorized()
		}
		n, ok := receiptNumber(c)
		if !ok {
			return "", nil, errReceiptNotFound
		}
		return receiptPDF(ctx, scope, n, &d.DonorID)
	})
}

// Summary answers the portal's GET /summaries/:year: the session donor's yearly summary.
func (h *PortalHandler) Summary(c *gin.Context) {
	answerPDF(c, func(ctx context.Context) (string, []byte, error) {
		d, ok := portalDonor(ctx)
		scope, err := authz.Scope(ctx)
		if !ok || err != nil {
			return "", nil, apierror.Unauthorized()
		}
		return summaryPDF(ctx, scope, d.DonorID, c.Param("year"))
	})
}

// ReceiptLink answers GET /api/public/receipts/:ref, the receipt e-mail's signed download link. A
// forged or expired reference is 404 like an unknown receipt.
func (h *Handler) ReceiptLink(c *gin.Context) {
	answerPDF(c, func(ctx context.Context) (string, []byte, error) {
		orgID, txID, ok := h.svc.receiptLinks.Parse(c.Param("ref"))
		if !ok {
			return "", nil, errReceiptNotFound
		}
		scope, err := h.svc.tenants.ForOrganization(ctx, orgID)
		if err != nil {
			return "", nil, errReceiptNotFound
		}
		n, err := scope.Store().ReceiptNumberOf(ctx, sharddb.ReceiptNumberOfParams{OrganizationID: orgID, TransactionID: txID})
		if errors.Is(err, dberr.ErrNotFound) {
			return "", nil, errReceiptNotFound
		}
		if err != nil {
			return "", nil, err
		}
		return receiptPDF(ctx, scope, n, nil)
	})
}

// managedDonation loads the :uuid donation of the signed-in organisation (another's is 404).
func (s *ManageService) managedDonation(ctx context.Context, c *gin.Context) (tenants.Scope, *row, error) {
	id, err := uuid.Parse(c.Param("uuid"))
	if err != nil {
		return tenants.Scope{}, nil, apierror.NotFound()
	}
	scope, err := authz.Scope(ctx)
	if err != nil {
		return scope, nil, err
	}
	r, err := s.load(ctx, scope, id)
	return scope, r, err
}

// ManageReceipt answers GET /manage/api/donations/:uuid/receipts/:number: a receipt of the donation.
func (s *ManageService) ManageReceipt(c *gin.Context) {
	answerPDF(c, func(ctx context.Context) (string, []byte, error) {
		scope, r, err := s.managedDonation(ctx, c)
		if err != nil {
			return "", nil, err
		}
		n, ok := receiptNumber(c)
		if !ok {
			return "", nil, errReceiptNotFound
		}
		// The donation's donor narrows the number to the receipts of this donor.
		return receiptPDF(ctx, scope, n, &r.Donor.UUID)
	})
}

// ManageSummary answers GET /manage/api/donations/:uuid/summaries/:year: the yearly summary of the
// donation's donor in the organisation (every donation of theirs).
func (s *ManageService) ManageSummary(c *gin.Context) {
	answerPDF(c, func(ctx context.Context) (string, []byte, error) {
		scope, r, err := s.managedDonation(ctx, c)
		if err != nil {
			return "", nil, err
		}
		return summaryPDF(ctx, scope, r.Donor.UUID, c.Param("year"))
	})
}
