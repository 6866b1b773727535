package taxid

import "strings"

// otherDocuments are the donor document types (spec §3) this package does not validate, by the
// longest number each has once separators are removed: Colombia's cédula (CC) up to 10 digits, a
// foreigner's card (CE) up to 12 in Peru, Uruguay's cédula (CI) 8 with its check digit, Argentina's
// old Libreta Cívica and de Enrolamiento (LC, LE) 8, and "Otro", any other document, 20.
var otherDocuments = map[string]int{"CC": 10, "CE": 12, "CI": 8, "LC": 8, "LE": 8, "Otro": 20}

// MaxDocumentLength is the longest number a donor document of the type can have, in characters
// once separators are removed, or 0 for an unknown type. The types this package validates take it
// from their masks; a type several countries use (DNI, RUT) takes the longest of them.
func MaxDocumentLength(docType string) int {
	if n, ok := otherDocuments[docType]; ok {
		return n
	}
	longest := 0
	for _, types := range countries {
		for _, t := range types {
			if t.name != docType {
				continue
			}
			for _, m := range t.masks {
				longest = max(longest, strings.Count(m, "#"))
			}
		}
	}
	return longest
}
