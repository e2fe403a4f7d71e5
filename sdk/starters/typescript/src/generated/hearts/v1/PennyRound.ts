// Original file: proto/hearts/v1/game.proto

import type { PennyCard as _hearts_v1_PennyCard, PennyCard__Output as _hearts_v1_PennyCard__Output } from '../../hearts/v1/PennyCard';

export interface PennyRound {
  'penny'?: (number);
  'cards'?: (_hearts_v1_PennyCard)[];
  'leader'?: (number);
  'winner'?: (number);
  'multi_round'?: (number);
  '_leader'?: "leader";
  '_winner'?: "winner";
}

export interface PennyRound__Output {
  'penny': (number);
  'cards': (_hearts_v1_PennyCard__Output)[];
  'leader'?: (number);
  'winner'?: (number);
  'multi_round': (number);
  '_leader'?: "leader";
  '_winner'?: "winner";
}
