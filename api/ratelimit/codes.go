package ratelimit

import (
	"context"
	"strings"
	"time"
)

// One-time codes sent to one address per day, wherever they are asked for: our send-code endpoint
// and registration, and Kratos's recovery, verification and settings flows through our proxy.
// SMS pumping costs money per message, and a flood of e-mails harms the address's owner.
var (
	emailCodes = New("codes_email", 10, 24*time.Hour)
	smsCodes   = New("codes_sms", 5, 24*time.Hour)
)

// CodeTo counts one code to addr (an e-mail address, or a phone number in E.164) and reports
// whether it may be sent, and if not, when it may.
func CodeTo(ctx context.Context, addr string) (bool, time.Duration, error) {
	addr = strings.ToLower(strings.TrimSpace(addr))
	if strings.Contains(addr, "@") {
		return emailCodes.Allow(ctx, addr)
	}
	return smsCodes.Allow(ctx, addr)
}
