import { defineMessages, type IntlShape } from 'react-intl';

/** How many categories an organisation may choose (organization.invalid_categories beyond it). */
export const MAX_CATEGORIES = 5;

// The country data's category codes (reference table organization_categories) and their names.
const names = defineMessages({
  children: { id: 'category.children', defaultMessage: 'Niñez' },
  education: { id: 'category.education', defaultMessage: 'Educación' },
  health: { id: 'category.health', defaultMessage: 'Salud' },
  food: { id: 'category.food', defaultMessage: 'Alimentación' },
  poverty: { id: 'category.poverty', defaultMessage: 'Pobreza' },
  housing: { id: 'category.housing', defaultMessage: 'Vivienda' },
  environment: { id: 'category.environment', defaultMessage: 'Medio ambiente' },
  animals: { id: 'category.animals', defaultMessage: 'Animales' },
  human_rights: { id: 'category.human_rights', defaultMessage: 'Derechos humanos' },
  women: { id: 'category.women', defaultMessage: 'Mujeres' },
  disability: { id: 'category.disability', defaultMessage: 'Discapacidad' },
  elderly: { id: 'category.elderly', defaultMessage: 'Personas mayores' },
  emergencies: { id: 'category.emergencies', defaultMessage: 'Emergencias' },
  culture: { id: 'category.culture', defaultMessage: 'Cultura' },
  sports: { id: 'category.sports', defaultMessage: 'Deporte' },
  community: { id: 'category.community', defaultMessage: 'Desarrollo comunitario' },
  science: { id: 'category.science', defaultMessage: 'Ciencia' },
  religion: { id: 'category.religion', defaultMessage: 'Religión' },
});

export const categoryName = (intl: IntlShape, code: string) =>
  code in names ? intl.formatMessage(names[code as keyof typeof names]) : code;
