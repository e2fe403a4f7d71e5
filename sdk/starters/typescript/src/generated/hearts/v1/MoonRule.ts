// Original file: proto/hearts/v1/rules.proto

export const MoonRule = {
  MOON_RULE_UNSPECIFIED: 'MOON_RULE_UNSPECIFIED',
  MOON_RULE_NONE: 'MOON_RULE_NONE',
  MOON_RULE_OLD: 'MOON_RULE_OLD',
  MOON_RULE_NEW: 'MOON_RULE_NEW',
  MOON_RULE_SHOOTERS_CHOICE: 'MOON_RULE_SHOOTERS_CHOICE',
  MOON_RULE_ADD_UNLESS_LOSING: 'MOON_RULE_ADD_UNLESS_LOSING',
} as const;

export type MoonRule =
  | 'MOON_RULE_UNSPECIFIED'
  | 0
  | 'MOON_RULE_NONE'
  | 1
  | 'MOON_RULE_OLD'
  | 2
  | 'MOON_RULE_NEW'
  | 3
  | 'MOON_RULE_SHOOTERS_CHOICE'
  | 4
  | 'MOON_RULE_ADD_UNLESS_LOSING'
  | 5

export type MoonRule__Output = typeof MoonRule[keyof typeof MoonRule]
