// Original file: proto/hearts/v1/rules.proto

export const LeadRule = {
  LEAD_RULE_UNSPECIFIED: 'LEAD_RULE_UNSPECIFIED',
  LEAD_RULE_ANY: 'LEAD_RULE_ANY',
  LEAD_RULE_HEARTS_BROKEN: 'LEAD_RULE_HEARTS_BROKEN',
  LEAD_RULE_POINTS_BROKEN: 'LEAD_RULE_POINTS_BROKEN',
} as const;

export type LeadRule =
  | 'LEAD_RULE_UNSPECIFIED'
  | 0
  | 'LEAD_RULE_ANY'
  | 1
  | 'LEAD_RULE_HEARTS_BROKEN'
  | 2
  | 'LEAD_RULE_POINTS_BROKEN'
  | 3

export type LeadRule__Output = typeof LeadRule[keyof typeof LeadRule]
