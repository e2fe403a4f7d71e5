// Original file: proto/hearts/v1/game.proto

import type { Rules as _hearts_v1_Rules, Rules__Output as _hearts_v1_Rules__Output } from '../../hearts/v1/Rules';
import type { PassDirection as _hearts_v1_PassDirection, PassDirection__Output as _hearts_v1_PassDirection__Output } from '../../hearts/v1/PassDirection';
import type { Trick as _hearts_v1_Trick, Trick__Output as _hearts_v1_Trick__Output } from '../../hearts/v1/Trick';
import type { Clock as _hearts_v1_Clock, Clock__Output as _hearts_v1_Clock__Output } from '../../hearts/v1/Clock';
import type { Bid as _hearts_v1_Bid, Bid__Output as _hearts_v1_Bid__Output } from '../../hearts/v1/Bid';
import type { DominoTable as _hearts_v1_DominoTable, DominoTable__Output as _hearts_v1_DominoTable__Output } from '../../hearts/v1/DominoTable';
import type { PennyRound as _hearts_v1_PennyRound, PennyRound__Output as _hearts_v1_PennyRound__Output } from '../../hearts/v1/PennyRound';
import type { Exposure as _hearts_v1_Exposure, Exposure__Output as _hearts_v1_Exposure__Output } from '../../hearts/v1/Exposure';
import type { QueenOffer as _hearts_v1_QueenOffer, QueenOffer__Output as _hearts_v1_QueenOffer__Output } from '../../hearts/v1/QueenOffer';

export interface HandState {
  'rules'?: (_hearts_v1_Rules | null);
  'seat'?: (number);
  'hand_number'?: (number);
  'dealer'?: (number);
  'hand'?: (string)[];
  'scores'?: (number)[];
  'pass_direction'?: (_hearts_v1_PassDirection);
  'passed'?: (string)[];
  'received'?: (string)[];
  'tricks'?: (_hearts_v1_Trick)[];
  'current_trick'?: (_hearts_v1_Trick | null);
  'broken'?: (boolean);
  'clock'?: (_hearts_v1_Clock | null);
  'kitty'?: (string)[];
  'kitty_taker'?: (number);
  'pot'?: (number);
  'reveals'?: (string)[];
  'scoring_suit'?: (string);
  'bids'?: (_hearts_v1_Bid)[];
  'declarer'?: (number);
  'lives'?: (number)[];
  'domino'?: (_hearts_v1_DominoTable | null);
  'pennies'?: (_hearts_v1_PennyRound)[];
  'multi_round'?: (number);
  'finished_pennies'?: (_hearts_v1_PennyRound)[];
  'pass_split'?: (_hearts_v1_PassDirection)[];
  'pledges'?: (number)[];
  'extra_card_seats'?: (number)[];
  'exposures'?: (_hearts_v1_Exposure)[];
  'queen_offer'?: (_hearts_v1_QueenOffer | null);
  '_kitty_taker'?: "kitty_taker";
  '_declarer'?: "declarer";
  '_queen_offer'?: "queen_offer";
  '_domino'?: "domino";
  '_multi_round'?: "multi_round";
}

export interface HandState__Output {
  'rules': (_hearts_v1_Rules__Output | null);
  'seat': (number);
  'hand_number': (number);
  'dealer': (number);
  'hand': (string)[];
  'scores': (number)[];
  'pass_direction': (_hearts_v1_PassDirection__Output);
  'passed': (string)[];
  'received': (string)[];
  'tricks': (_hearts_v1_Trick__Output)[];
  'current_trick': (_hearts_v1_Trick__Output | null);
  'broken': (boolean);
  'clock': (_hearts_v1_Clock__Output | null);
  'kitty': (string)[];
  'kitty_taker'?: (number);
  'pot': (number);
  'reveals': (string)[];
  'scoring_suit': (string);
  'bids': (_hearts_v1_Bid__Output)[];
  'declarer'?: (number);
  'lives': (number)[];
  'domino'?: (_hearts_v1_DominoTable__Output | null);
  'pennies': (_hearts_v1_PennyRound__Output)[];
  'multi_round'?: (number);
  'finished_pennies': (_hearts_v1_PennyRound__Output)[];
  'pass_split': (_hearts_v1_PassDirection__Output)[];
  'pledges': (number)[];
  'extra_card_seats': (number)[];
  'exposures': (_hearts_v1_Exposure__Output)[];
  'queen_offer'?: (_hearts_v1_QueenOffer__Output | null);
  '_kitty_taker'?: "kitty_taker";
  '_declarer'?: "declarer";
  '_queen_offer'?: "queen_offer";
  '_domino'?: "domino";
  '_multi_round'?: "multi_round";
}
