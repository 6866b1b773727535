package taxid

import "fmt"

// Code is a stable, machine-readable reason a uid was rejected. The API sends
// it to clients so they can localise the message; never rename a value.
type Code string

// Error codes returned by Validate, Normalize and Format.
const (
	CodeRequired          Code = "uid_required"
	CodeInvalidFormat     Code = "uid_invalid_format"
	CodeInvalidCheckDigit Code = "uid_invalid_check_digit"
	CodeTypeNotAllowed    Code = "uid_type_not_allowed"
)

// Error reports why a uid was rejected. Compare with errors.Is against the
// Err* sentinels, or use errors.As to read the code and context.
type Error struct {
	Code    Code
	Country string
	Type    string
}

// Sentinels for errors.Is; they match any *Error with the same Code.
var (
	ErrRequired          = &Error{Code: CodeRequired}
	ErrInvalidFormat     = &Error{Code: CodeInvalidFormat}
	ErrInvalidCheckDigit = &Error{Code: CodeInvalidCheckDigit}
	ErrTypeNotAllowed    = &Error{Code: CodeTypeNotAllowed}
)

func (e *Error) Error() string {
	return fmt.Sprintf("taxid: %s (country %q, type %q)", e.Code, e.Country, e.Type)
}

// Is makes errors.Is match on the code alone, so callers need not care about
// the country and type captured in the returned error.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Message is the human text for a Code in the platform's three languages.
type Message struct {
	ES string `json:"es"`
	EN string `json:"en"`
	PT string `json:"pt"`
}

// Messages holds the default text for every Code, for API responses that
// carry both the code and a ready-to-show message.
var Messages = map[Code]Message{
	CodeRequired: {
		ES: "El número de identificación fiscal es obligatorio.",
		EN: "The tax identification number is required.",
		PT: "O número de identificação fiscal é obrigatório.",
	},
	CodeInvalidFormat: {
		ES: "El número de identificación fiscal no tiene un formato válido.",
		EN: "The tax identification number is not in a valid format.",
		PT: "O número de identificação fiscal não está em um formato válido.",
	},
	CodeInvalidCheckDigit: {
		ES: "El número de identificación fiscal no es válido: revisa el dígito verificador.",
		EN: "The tax identification number is not valid: check the check digit.",
		PT: "O número de identificação fiscal não é válido: confira o dígito verificador.",
	},
	CodeTypeNotAllowed: {
		ES: "Este tipo de identificación no está permitido para el país seleccionado.",
		EN: "This identification type is not allowed for the selected country.",
		PT: "Este tipo de identificação não é permitido para o país selecionado.",
	},
}
