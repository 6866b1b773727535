package outbox_test

import (
	"bufio"
	"io"
	"mime"
	"mime/multipart"
	"net"
	"net/mail"
	"net/textproto"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"
)

// fakeSMTP is a small SMTP server speaking the real protocol (no STARTTLS, no AUTH): it keeps each
// message exactly as it came over the wire. silent servers accept connections and never answer.
type fakeSMTP struct {
	Addr   string
	mu     sync.Mutex
	wire   []string
	accept chan struct{} // a connection arrived
}

func newFakeSMTP(t *testing.T, silent bool) *fakeSMTP {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	s := &fakeSMTP{Addr: ln.Addr().String(), accept: make(chan struct{}, 100)}
	var conns sync.WaitGroup
	t.Cleanup(func() { ln.Close(); conns.Wait() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			conns.Add(1)
			s.accept <- struct{}{}
			go func() {
				defer conns.Done()
				defer c.Close()
				if silent {
					_, _ = io.Copy(io.Discard, c) // until the client gives up
					return
				}
				s.serve(textproto.NewConn(c))
			}()
		}
	}()
	return s
}

func (s *fakeSMTP) serve(c *textproto.Conn) {
	_ = c.PrintfLine("220 fake.test ESMTP")
	for {
		line, err := c.ReadLine()
		if err != nil {
			return
		}
		verb, _, _ := strings.Cut(strings.ToUpper(line), " ")
		switch verb {
		case "EHLO", "HELO":
			_ = c.PrintfLine("250-fake.test\r\n250 8BITMIME")
		case "MAIL", "RCPT", "RSET", "NOOP":
			_ = c.PrintfLine("250 OK")
		case "DATA":
			_ = c.PrintfLine("354 go ahead")
			data, err := io.ReadAll(c.DotReader())
			if err != nil {
				return
			}
			s.mu.Lock()
			s.wire = append(s.wire, string(data))
			s.mu.Unlock()
			_ = c.PrintfLine("250 queued")
		case "QUIT":
			_ = c.PrintfLine("221 bye")
			return
		default:
			_ = c.PrintfLine("502 not here")
		}
	}
}

// Messages are the messages received so far, as sent on the wire.
func (s *fakeSMTP) Messages() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.wire...)
}

// parts parses a wire message: its header, and each multipart/alternative part's content type and
// decoded body.
func parts(t *testing.T, wire string) (mail.Header, map[string]string) {
	t.Helper()
	m, err := mail.ReadMessage(bufio.NewReader(strings.NewReader(wire)))
	require.NoError(t, err)
	ctype, params, err := mime.ParseMediaType(m.Header.Get("Content-Type"))
	require.NoError(t, err)
	require.Equal(t, "multipart/alternative", ctype)
	out := map[string]string{}
	r := multipart.NewReader(m.Body, params["boundary"])
	for {
		p, err := r.NextPart() // decodes quoted-printable
		if err == io.EOF {
			break
		}
		require.NoError(t, err)
		body, err := io.ReadAll(p)
		require.NoError(t, err)
		pt, _, err := mime.ParseMediaType(p.Header.Get("Content-Type"))
		require.NoError(t, err)
		out[pt] = strings.ReplaceAll(string(body), "\r\n", "\n")
	}
	return m.Header, out
}
