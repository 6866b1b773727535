package outbox

import (
	"bytes"
	"embed"
	"fmt"
	htmltemplate "html/template"
	"io/fs"
	"path"
	"strings"
	"sync"
	texttemplate "text/template"

	"github.com/aporta/aporta/internal/i18n"
)

// Every e-mail is rendered from templates/<kind>.tmpl, which defines three blocks:
//
//	{{define "subject"}} one line                     (text/template)
//	{{define "text"}}    the text/plain part          (text/template: user text stays verbatim)
//	{{define "html"}}    the text/html part's content (html/template: escaped by context)
//
// and takes its words from the i18n catalogue in the message's language: {{t "code" args…}}.
// layout.html wraps the HTML part and offers the blocks "p" (a paragraph keeping line breaks),
// "button" ({{template "button" (link URL label)}}) and "code" (a one-time code, large).
//
// To add an e-mail: write templates/<kind>.tmpl (account_enabled.tmpl is a short model), add its
// texts in es, en and pt to messages.go, add the kind to TestEveryTemplateRendersInEachLanguage, then
// send Compose(to, kind, lang, data) through Outbox.Send or Mailer.SendOnce. data is a map or
// struct; a field the template names must exist.

//go:embed templates/*.tmpl templates/layout.html
var templateFS embed.FS

// mailTemplate is one kind's parsed templates; t is bound to a language before a render (in).
type mailTemplate struct {
	text *texttemplate.Template
	html *htmltemplate.Template
}

var mailTemplates = mustParseTemplates()

// Link is a button's target and label.
type Link struct{ URL, Label string }

func templateFuncs(lang i18n.Lang) map[string]any {
	return map[string]any{
		"t":    func(code string, args ...any) string { return i18n.T(lang, code, args...) },
		"lang": func() string { return string(lang) },
		"link": func(url, label string) Link { return Link{URL: url, Label: label} },
	}
}

func mustParseTemplates() map[string]mailTemplate {
	layout, err := fs.ReadFile(templateFS, "templates/layout.html")
	if err != nil {
		panic(err)
	}
	files, err := fs.Glob(templateFS, "templates/*.tmpl")
	if err != nil {
		panic(err)
	}
	out := map[string]mailTemplate{}
	funcs := templateFuncs(i18n.Default)
	for _, f := range files {
		src, err := fs.ReadFile(templateFS, f)
		if err != nil {
			panic(err)
		}
		kind := strings.TrimSuffix(path.Base(f), ".tmpl")
		text := texttemplate.Must(texttemplate.New(kind).Funcs(funcs).Option("missingkey=error").Parse(string(src)))
		html := htmltemplate.Must(htmltemplate.New(kind).Funcs(funcs).Option("missingkey=error").Parse(string(layout)))
		html = htmltemplate.Must(html.Parse(string(src)))
		for _, block := range []string{"subject", "text", "html"} {
			if text.Lookup(block) == nil {
				panic(fmt.Sprintf("outbox: template %s has no %q block", f, block))
			}
		}
		out[kind] = mailTemplate{text: text, html: html}
	}
	return out
}

// inLang keeps each kind's templates bound to each language they were rendered in (kind/lang → mailTemplate): a
// clone's HTML is escaped at its first render, and cloning and escaping for every e-mail cost the donation form more
// than its rendering (issue 19). Only languages i18n.Parse answers are kept, so the set stays the kinds times those.
var inLang sync.Map

// in is t bound to lang: its functions say lang's words.
func (t mailTemplate) in(kind string, lang i18n.Lang) (mailTemplate, error) {
	key := kind + "/" + string(lang)
	if b, ok := inLang.Load(key); ok {
		return b.(mailTemplate), nil
	}
	text, err := t.text.Clone()
	if err != nil {
		return mailTemplate{}, err
	}
	html, err := t.html.Clone()
	if err != nil {
		return mailTemplate{}, err
	}
	funcs := templateFuncs(lang)
	b := mailTemplate{text: text.Funcs(funcs), html: html.Funcs(funcs)}
	if known, ok := i18n.Parse(string(lang)); ok && known == lang {
		if kept, loaded := inLang.LoadOrStore(key, b); loaded {
			return kept.(mailTemplate), nil
		}
	}
	return b, nil
}

// Compose renders the e-mail kind for the recipient in lang: subject, text part and HTML part.
func Compose(recipient, kind string, lang i18n.Lang, data any) (Message, error) {
	tmpl, ok := mailTemplates[kind]
	if !ok {
		return Message{}, fmt.Errorf("outbox: no e-mail template %q", kind)
	}
	if lang == "" {
		lang = i18n.Default
	}
	tmpl, err := tmpl.in(kind, lang)
	if err != nil {
		return Message{}, err
	}
	text, html := tmpl.text, tmpl.html
	var subject, body, page bytes.Buffer
	if err := text.ExecuteTemplate(&subject, "subject", data); err != nil {
		return Message{}, fmt.Errorf("outbox: %s subject: %w", kind, err)
	}
	if err := text.ExecuteTemplate(&body, "text", data); err != nil {
		return Message{}, fmt.Errorf("outbox: %s text: %w", kind, err)
	}
	if err := html.ExecuteTemplate(&page, "layout", data); err != nil {
		return Message{}, fmt.Errorf("outbox: %s html: %w", kind, err)
	}
	return Message{
		Recipient: recipient, MessageType: TypeEmail, TemplateType: kind,
		Subject: strings.TrimSpace(subject.String()),
		Body:    body.String(), HTML: page.String(),
	}, nil
}
