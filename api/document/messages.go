package document

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		// §5 Document upload: an invalid file.
		"document.invalid_file": {
			i18n.ES: "El archivo no es válido. Sube un PNG, JPG, JPEG, PDF, DOC o DOCX de menos de 50 MB.",
			i18n.EN: "The file is not valid. Upload a PNG, JPG, JPEG, PDF, DOC or DOCX file under 50 MB.",
			i18n.PT: "O arquivo não é válido. Envie um PNG, JPG, JPEG, PDF, DOC ou DOCX com menos de 50 MB.",
		},
		"document.invalid_file_type": {
			i18n.ES: "El tipo de archivo no está permitido o su contenido no coincide con su extensión.",
			i18n.EN: "This file type is not allowed, or its content does not match its extension.",
			i18n.PT: "Este tipo de arquivo não é permitido ou o conteúdo não corresponde à extensão.",
		},
		"document.invalid_file_size": {
			i18n.ES: "El archivo debe pesar menos de 50 MB.",
			i18n.EN: "The file must be smaller than 50 MB.",
			i18n.PT: "O arquivo deve ter menos de 50 MB.",
		},
		"document.invalid_document_type": {
			i18n.ES: "Este tipo de documento no corresponde a tu país.",
			i18n.EN: "This document type is not required in your country.",
			i18n.PT: "Este tipo de documento não corresponde ao seu país.",
		},
		"document.too_many_files": {
			i18n.ES: "Puedes subir hasta %d archivos por documento.",
			i18n.EN: "You can upload up to %d files per document.",
			i18n.PT: "Você pode enviar até %d arquivos por documento.",
		},
		"document.locked": {
			i18n.ES: "El documento está en verificación o ya fue aprobado: no se puede modificar.",
			i18n.EN: "The document is being verified or was already approved: it cannot be changed.",
			i18n.PT: "O documento está em verificação ou já foi aprovado: não pode ser alterado.",
		},
		"document.no_attachments": {
			i18n.ES: "Sube al menos un archivo antes de enviar el documento a verificación.",
			i18n.EN: "Upload at least one file before sending the document for verification.",
			i18n.PT: "Envie pelo menos um arquivo antes de mandar o documento para verificação.",
		},
		"document.not_under_review": {
			i18n.ES: "El documento no está pendiente de revisión.",
			i18n.EN: "The document is not waiting for review.",
			i18n.PT: "O documento não está aguardando revisão.",
		},

		// Document types (labels and descriptions of country_documents).
		"document.bylaws.label":                        {i18n.ES: "Estatuto", i18n.EN: "Bylaws", i18n.PT: "Estatuto social"},
		"document.bylaws.description":                  {i18n.ES: "Estatuto vigente de la organización, con su inscripción en el registro correspondiente.", i18n.EN: "The organisation's current bylaws, with their registration.", i18n.PT: "Estatuto social vigente da organização, com o registro correspondente."},
		"document.cuit_certificate.label":              {i18n.ES: "Constancia de CUIT", i18n.EN: "CUIT certificate", i18n.PT: "Comprovante de CUIT"},
		"document.cuit_certificate.description":        {i18n.ES: "Constancia de inscripción en AFIP/ARCA.", i18n.EN: "Registration certificate from AFIP/ARCA.", i18n.PT: "Comprovante de inscrição na AFIP/ARCA."},
		"document.authorities_designation.label":       {i18n.ES: "Designación de autoridades", i18n.EN: "Appointment of officers", i18n.PT: "Ata de eleição da diretoria"},
		"document.authorities_designation.description": {i18n.ES: "Acta con la designación de las autoridades vigentes.", i18n.EN: "Minutes appointing the current officers.", i18n.PT: "Ata com a eleição da diretoria vigente."},
		"document.representative_id.label":             {i18n.ES: "Documento del representante legal", i18n.EN: "Legal representative's ID", i18n.PT: "Documento do representante legal"},
		"document.representative_id.description":       {i18n.ES: "Documento de identidad del representante legal, de ambos lados.", i18n.EN: "The legal representative's identity document, both sides.", i18n.PT: "Documento de identidade do representante legal, frente e verso."},
		"document.cnpj_card.label":                     {i18n.ES: "Tarjeta CNPJ", i18n.EN: "CNPJ card", i18n.PT: "Cartão CNPJ"},
		"document.cnpj_card.description":               {i18n.ES: "Comprobante de inscripción y situación cadastral (Receita Federal).", i18n.EN: "Registration and status certificate from the Receita Federal.", i18n.PT: "Comprovante de inscrição e situação cadastral da Receita Federal."},
		"document.rut_certificate.label":               {i18n.ES: "Certificado de RUT", i18n.EN: "RUT certificate", i18n.PT: "Certificado de RUT"},
		"document.rut_certificate.description":         {i18n.ES: "Certificado de inscripción tributaria vigente.", i18n.EN: "Current tax registration certificate.", i18n.PT: "Certificado de inscrição tributária vigente."},
		"document.validity_certificate.label":          {i18n.ES: "Certificado de vigencia", i18n.EN: "Certificate of good standing", i18n.PT: "Certidão de vigência"},
		"document.validity_certificate.description":    {i18n.ES: "Certificado de vigencia de la persona jurídica y de sus poderes, con menos de 90 días.", i18n.EN: "Certificate of the entity's and its powers' good standing, under 90 days old.", i18n.PT: "Certidão de vigência da pessoa jurídica e dos poderes, com menos de 90 dias."},
		"document.existence_certificate.label":         {i18n.ES: "Certificado de existencia y representación legal", i18n.EN: "Certificate of existence and legal representation", i18n.PT: "Certidão de existência e representação legal"},
		"document.existence_certificate.description":   {i18n.ES: "Expedido por la Cámara de Comercio, con menos de 30 días.", i18n.EN: "Issued by the Chamber of Commerce, under 30 days old.", i18n.PT: "Emitida pela Câmara de Comércio, com menos de 30 dias."},
		"document.constitutive_act.label":              {i18n.ES: "Acta constitutiva", i18n.EN: "Articles of incorporation", i18n.PT: "Ato constitutivo"},
		"document.constitutive_act.description":        {i18n.ES: "Acta constitutiva protocolizada ante notario, con sus modificaciones.", i18n.EN: "Notarised articles of incorporation, with their amendments.", i18n.PT: "Ato constitutivo registrado em cartório, com alterações."},
		"document.tax_certificate.label":               {i18n.ES: "Constancia de situación fiscal", i18n.EN: "Tax status certificate", i18n.PT: "Comprovante de situação fiscal"},
		"document.tax_certificate.description":         {i18n.ES: "Constancia de situación fiscal del SAT con el RFC de la organización.", i18n.EN: "SAT tax status certificate with the organisation's RFC.", i18n.PT: "Comprovante de situação fiscal do SAT com o RFC da organização."},
		"document.ruc_record.label":                    {i18n.ES: "Ficha RUC", i18n.EN: "RUC record", i18n.PT: "Ficha RUC"},
		"document.ruc_record.description":              {i18n.ES: "Ficha RUC emitida por SUNAT.", i18n.EN: "RUC record issued by SUNAT.", i18n.PT: "Ficha RUC emitida pela SUNAT."},
	})
}
