package campaign

import "github.com/aporta/aporta/internal/i18n"

func init() {
	i18n.Register(i18n.Catalog{
		"campaign.required":               {i18n.ES: "Este campo es requerido", i18n.EN: "This field is required", i18n.PT: "Este campo é obrigatório"},
		"campaign.too_long":               {i18n.ES: "El texto es demasiado largo", i18n.EN: "The text is too long", i18n.PT: "O texto é longo demais"},
		"campaign.too_many":               {i18n.ES: "Hay demasiados elementos", i18n.EN: "There are too many items", i18n.PT: "Há itens demais"},
		"campaign.invalid_option":         {i18n.ES: "Elige una opción válida", i18n.EN: "Choose a valid option", i18n.PT: "Escolha uma opção válida"},
		"campaign.amount_invalid":         {i18n.ES: "Ingresa un monto válido", i18n.EN: "Enter a valid amount", i18n.PT: "Informe um valor válido"},
		"campaign.color_invalid":          {i18n.ES: "Color hexadecimal invalido", i18n.EN: "Invalid hexadecimal colour", i18n.PT: "Cor hexadecimal inválida"},
		"campaign.percentage_range":       {i18n.ES: "El monto debe ser un valor entre %s%% y %s%%", i18n.EN: "The amount must be a value between %s%% and %s%%", i18n.PT: "O valor deve estar entre %s%% e %s%%"},
		"campaign.percentage_range_field": {i18n.ES: "El porcentaje está fuera del rango permitido", i18n.EN: "The percentage is out of the allowed range", i18n.PT: "A porcentagem está fora do intervalo permitido"},
		"campaign.event_only_tickets":     {i18n.ES: "Solo las campañas de entradas tienen datos de evento", i18n.EN: "Only ticket campaigns have event details", i18n.PT: "Apenas campanhas de ingressos têm dados de evento"},
		"campaign.dates_order":            {i18n.ES: "La fecha de fin debe ser posterior a la de inicio", i18n.EN: "The end date must be after the start date", i18n.PT: "A data de término deve ser posterior à de início"},
		"campaign.plan_required":          {i18n.ES: "Tu plan actual no incluye esta función. Elige un plan en /pricing para usarla.", i18n.EN: "Your current plan does not include this feature. Choose a plan at /pricing to use it.", i18n.PT: "Seu plano atual não inclui este recurso. Escolha um plano em /pricing para usá-lo."},
		"campaign.qr_plan_required":       {i18n.ES: "La descarga del código QR no está incluida en el plan Original. Elige un plan en /pricing para usarla.", i18n.EN: "QR code download is not included in the Original plan. Choose a plan at /pricing to use it.", i18n.PT: "O download do código QR não está incluído no plano Original. Escolha um plano em /pricing para usá-lo."},
		"campaign.org_not_enabled":        {i18n.ES: "Tu cuenta aún no está activada: completa la verificación de la organización para publicar campañas.", i18n.EN: "Your account is not activated yet: complete the organisation's verification to publish campaigns.", i18n.PT: "Sua conta ainda não está ativada: conclua a verificação da organização para publicar campanhas."},
		"campaign.publish_missing":        {i18n.ES: "Completa la información requerida de la campaña antes de publicarla.", i18n.EN: "Complete the campaign's required information before publishing it.", i18n.PT: "Complete as informações obrigatórias da campanha antes de publicá-la."},
		"campaign.publish_needs_amounts":  {i18n.ES: "Agrega al menos un monto", i18n.EN: "Add at least one amount", i18n.PT: "Adicione pelo menos um valor"},
		"campaign.slug_taken":             {i18n.ES: "Esa dirección ya está en uso", i18n.EN: "That address is already in use", i18n.PT: "Esse endereço já está em uso"},
		"campaign.slug_invalid":           {i18n.ES: "Usa solo minúsculas, números y guiones", i18n.EN: "Use only lowercase letters, numbers and dashes", i18n.PT: "Use apenas minúsculas, números e hífens"},
		"campaign.image_invalid":          {i18n.ES: "El archivo debe ser una imagen jpeg, jpg, png o gif", i18n.EN: "The file must be a jpeg, jpg, png or gif image", i18n.PT: "O arquivo deve ser uma imagem jpeg, jpg, png ou gif"},
		"campaign.image_too_large":        {i18n.ES: "La imagen debe pesar menos de 5 MB", i18n.EN: "The image must be smaller than 5 MB", i18n.PT: "A imagem deve ter menos de 5 MB"},
		"campaign.storage_unavailable":    {i18n.ES: "No podemos guardar imágenes en este momento", i18n.EN: "We cannot store images right now", i18n.PT: "Não podemos salvar imagens agora"},
		"campaign.email_invalid":          {i18n.ES: "Ingresa un correo electrónico válido", i18n.EN: "Enter a valid e-mail address", i18n.PT: "Informe um e-mail válido"},
		"campaign.thanks_default":         {i18n.ES: "¡Gracias {nombre}! Recibimos tu donación de {monto} para {campaña}.", i18n.EN: "Thank you {name}! We received your donation of {amount} to {campaign}.", i18n.PT: "Obrigado {nome}! Recebemos sua doação de {valor} para {campanha}."},
	})
}
