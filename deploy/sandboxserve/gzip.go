package sandboxserve

import (
	"compress/gzip"
	"net/http"

	"github.com/aporta/aporta/internal/httpgzip"
)

// compress gzips answers for clients that take gzip, as the real services' APIs do: browsers read the sandbox
// gateway's payment-method list (about 10 KiB of JSON) on every donation form, and Lighthouse counted it sent
// uncompressed (issue 19). Go clients ask for gzip and undo it transparently.
func compress(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Add("Vary", "Accept-Encoding")
		if r.Method == http.MethodHead || !httpgzip.Accepted(r.Header.Get("Accept-Encoding")) {
			h.ServeHTTP(w, r)
			return
		}
		gw := &gzipWriter{ResponseWriter: w}
		defer gw.close()
		h.ServeHTTP(gw, r)
	})
}

// gzipWriter compresses the body unless the answer has none (204, 304) or is encoded already.
type gzipWriter struct {
	http.ResponseWriter
	zw          *gzip.Writer
	wroteHeader bool
}

func (w *gzipWriter) WriteHeader(status int) {
	if w.wroteHeader {
		return
	}
	w.wroteHeader = true
	h := w.Header()
	if status != http.StatusNoContent && status != http.StatusNotModified && h.Get("Content-Encoding") == "" {
		h.Del("Content-Length")
		h.Set("Content-Encoding", "gzip")
		w.zw = gzip.NewWriter(w.ResponseWriter)
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *gzipWriter) Write(b []byte) (int, error) {
	if !w.wroteHeader {
		if w.Header().Get("Content-Type") == "" {
			w.Header().Set("Content-Type", http.DetectContentType(b)) // what net/http would have sniffed from the raw body
		}
		w.WriteHeader(http.StatusOK)
	}
	if w.zw == nil {
		return w.ResponseWriter.Write(b)
	}
	return w.zw.Write(b)
}

func (w *gzipWriter) close() {
	if w.zw != nil {
		_ = w.zw.Close()
	}
}
