package export

import "fmt"

var linkEmail = map[string][2]string{
	"es": {"Tu descarga de leads de Aporta está lista", "Hola:\n\nDescarga el archivo con los leads de los últimos 90 días aquí:\n%s\n\nEl enlace es válido por 24 horas.\n"},
	"en": {"Your Aporta leads download is ready", "Hello:\n\nDownload the file with the leads of the last 90 days here:\n%s\n\nThe link is valid for 24 hours.\n"},
	"pt": {"Seu download de leads do Aporta está pronto", "Olá:\n\nBaixe o arquivo com os leads dos últimos 90 dias aqui:\n%s\n\nO link é válido por 24 horas.\n"},
}

func renderEmail(lang, link string) (string, string) {
	t, ok := linkEmail[lang]
	if !ok {
		t = linkEmail["es"]
	}
	return t[0], fmt.Sprintf(t[1], link)
}
