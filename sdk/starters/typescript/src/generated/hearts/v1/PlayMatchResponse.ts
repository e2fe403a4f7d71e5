// Original file: proto/hearts/v1/bot.proto

import type { MatchStartAnswer as _hearts_v1_MatchStartAnswer, MatchStartAnswer__Output as _hearts_v1_MatchStartAnswer__Output } from '../../hearts/v1/MatchStartAnswer';
import type { PassCardsAnswer as _hearts_v1_PassCardsAnswer, PassCardsAnswer__Output as _hearts_v1_PassCardsAnswer__Output } from '../../hearts/v1/PassCardsAnswer';
import type { PlayCardAnswer as _hearts_v1_PlayCardAnswer, PlayCardAnswer__Output as _hearts_v1_PlayCardAnswer__Output } from '../../hearts/v1/PlayCardAnswer';
import type { RevealCardAnswer as _hearts_v1_RevealCardAnswer, RevealCardAnswer__Output as _hearts_v1_RevealCardAnswer__Output } from '../../hearts/v1/RevealCardAnswer';
import type { CallPassAnswer as _hearts_v1_CallPassAnswer, CallPassAnswer__Output as _hearts_v1_CallPassAnswer__Output } from '../../hearts/v1/CallPassAnswer';
import type { BidAnswer as _hearts_v1_BidAnswer, BidAnswer__Output as _hearts_v1_BidAnswer__Output } from '../../hearts/v1/BidAnswer';
import type { NameSuitAnswer as _hearts_v1_NameSuitAnswer, NameSuitAnswer__Output as _hearts_v1_NameSuitAnswer__Output } from '../../hearts/v1/NameSuitAnswer';
import type { MoonChoiceAnswer as _hearts_v1_MoonChoiceAnswer, MoonChoiceAnswer__Output as _hearts_v1_MoonChoiceAnswer__Output } from '../../hearts/v1/MoonChoiceAnswer';
import type { PledgeAnswer as _hearts_v1_PledgeAnswer, PledgeAnswer__Output as _hearts_v1_PledgeAnswer__Output } from '../../hearts/v1/PledgeAnswer';
import type { ExposeAnswer as _hearts_v1_ExposeAnswer, ExposeAnswer__Output as _hearts_v1_ExposeAnswer__Output } from '../../hearts/v1/ExposeAnswer';
import type { RefuseQueenAnswer as _hearts_v1_RefuseQueenAnswer, RefuseQueenAnswer__Output as _hearts_v1_RefuseQueenAnswer__Output } from '../../hearts/v1/RefuseQueenAnswer';
import type { ReplacePassAnswer as _hearts_v1_ReplacePassAnswer, ReplacePassAnswer__Output as _hearts_v1_ReplacePassAnswer__Output } from '../../hearts/v1/ReplacePassAnswer';
import type { Long } from '@grpc/proto-loader';

export interface PlayMatchResponse {
  'request_id'?: (number | string | Long);
  'match_start'?: (_hearts_v1_MatchStartAnswer | null);
  'pass_cards'?: (_hearts_v1_PassCardsAnswer | null);
  'play_card'?: (_hearts_v1_PlayCardAnswer | null);
  'reveal_card'?: (_hearts_v1_RevealCardAnswer | null);
  'call_pass'?: (_hearts_v1_CallPassAnswer | null);
  'bid'?: (_hearts_v1_BidAnswer | null);
  'name_suit'?: (_hearts_v1_NameSuitAnswer | null);
  'moon_choice'?: (_hearts_v1_MoonChoiceAnswer | null);
  'pledge'?: (_hearts_v1_PledgeAnswer | null);
  'expose'?: (_hearts_v1_ExposeAnswer | null);
  'refuse_queen'?: (_hearts_v1_RefuseQueenAnswer | null);
  'replace_pass'?: (_hearts_v1_ReplacePassAnswer | null);
  'note'?: (string);
  'kind'?: "match_start"|"pass_cards"|"play_card"|"reveal_card"|"call_pass"|"bid"|"name_suit"|"moon_choice"|"pledge"|"refuse_queen"|"replace_pass"|"expose";
}

export interface PlayMatchResponse__Output {
  'request_id': (string);
  'match_start'?: (_hearts_v1_MatchStartAnswer__Output | null);
  'pass_cards'?: (_hearts_v1_PassCardsAnswer__Output | null);
  'play_card'?: (_hearts_v1_PlayCardAnswer__Output | null);
  'reveal_card'?: (_hearts_v1_RevealCardAnswer__Output | null);
  'call_pass'?: (_hearts_v1_CallPassAnswer__Output | null);
  'bid'?: (_hearts_v1_BidAnswer__Output | null);
  'name_suit'?: (_hearts_v1_NameSuitAnswer__Output | null);
  'moon_choice'?: (_hearts_v1_MoonChoiceAnswer__Output | null);
  'pledge'?: (_hearts_v1_PledgeAnswer__Output | null);
  'expose'?: (_hearts_v1_ExposeAnswer__Output | null);
  'refuse_queen'?: (_hearts_v1_RefuseQueenAnswer__Output | null);
  'replace_pass'?: (_hearts_v1_ReplacePassAnswer__Output | null);
  'note': (string);
  'kind'?: "match_start"|"pass_cards"|"play_card"|"reveal_card"|"call_pass"|"bid"|"name_suit"|"moon_choice"|"pledge"|"refuse_queen"|"replace_pass"|"expose";
}
