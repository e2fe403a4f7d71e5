// Original file: proto/hearts/v1/rules.proto

export const DealerRule = {
  DEALER_RULE_UNSPECIFIED: 'DEALER_RULE_UNSPECIFIED',
  DEALER_RULE_ROTATE: 'DEALER_RULE_ROTATE',
  DEALER_RULE_QUEEN_OF_SPADES_TAKER: 'DEALER_RULE_QUEEN_OF_SPADES_TAKER',
} as const;

export type DealerRule =
  | 'DEALER_RULE_UNSPECIFIED'
  | 0
  | 'DEALER_RULE_ROTATE'
  | 1
  | 'DEALER_RULE_QUEEN_OF_SPADES_TAKER'
  | 2

export type DealerRule__Output = typeof DealerRule[keyof typeof DealerRule]
