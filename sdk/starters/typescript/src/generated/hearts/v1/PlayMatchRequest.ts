// Original file: proto/hearts/v1/bot.proto

import type { MatchStart as _hearts_v1_MatchStart, MatchStart__Output as _hearts_v1_MatchStart__Output } from '../../hearts/v1/MatchStart';
import type { PassCardsQuery as _hearts_v1_PassCardsQuery, PassCardsQuery__Output as _hearts_v1_PassCardsQuery__Output } from '../../hearts/v1/PassCardsQuery';
import type { PlayCardQuery as _hearts_v1_PlayCardQuery, PlayCardQuery__Output as _hearts_v1_PlayCardQuery__Output } from '../../hearts/v1/PlayCardQuery';
import type { HandStart as _hearts_v1_HandStart, HandStart__Output as _hearts_v1_HandStart__Output } from '../../hearts/v1/HandStart';
import type { TrickEnd as _hearts_v1_TrickEnd, TrickEnd__Output as _hearts_v1_TrickEnd__Output } from '../../hearts/v1/TrickEnd';
import type { HandEnd as _hearts_v1_HandEnd, HandEnd__Output as _hearts_v1_HandEnd__Output } from '../../hearts/v1/HandEnd';
import type { MatchEnd as _hearts_v1_MatchEnd, MatchEnd__Output as _hearts_v1_MatchEnd__Output } from '../../hearts/v1/MatchEnd';
import type { RevealCardQuery as _hearts_v1_RevealCardQuery, RevealCardQuery__Output as _hearts_v1_RevealCardQuery__Output } from '../../hearts/v1/RevealCardQuery';
import type { CallPassQuery as _hearts_v1_CallPassQuery, CallPassQuery__Output as _hearts_v1_CallPassQuery__Output } from '../../hearts/v1/CallPassQuery';
import type { BidQuery as _hearts_v1_BidQuery, BidQuery__Output as _hearts_v1_BidQuery__Output } from '../../hearts/v1/BidQuery';
import type { NameSuitQuery as _hearts_v1_NameSuitQuery, NameSuitQuery__Output as _hearts_v1_NameSuitQuery__Output } from '../../hearts/v1/NameSuitQuery';
import type { MoonChoiceQuery as _hearts_v1_MoonChoiceQuery, MoonChoiceQuery__Output as _hearts_v1_MoonChoiceQuery__Output } from '../../hearts/v1/MoonChoiceQuery';
import type { PledgeQuery as _hearts_v1_PledgeQuery, PledgeQuery__Output as _hearts_v1_PledgeQuery__Output } from '../../hearts/v1/PledgeQuery';
import type { ExposeQuery as _hearts_v1_ExposeQuery, ExposeQuery__Output as _hearts_v1_ExposeQuery__Output } from '../../hearts/v1/ExposeQuery';
import type { RefuseQueenQuery as _hearts_v1_RefuseQueenQuery, RefuseQueenQuery__Output as _hearts_v1_RefuseQueenQuery__Output } from '../../hearts/v1/RefuseQueenQuery';
import type { ReplacePassQuery as _hearts_v1_ReplacePassQuery, ReplacePassQuery__Output as _hearts_v1_ReplacePassQuery__Output } from '../../hearts/v1/ReplacePassQuery';
import type { DominoTrickEnd as _hearts_v1_DominoTrickEnd, DominoTrickEnd__Output as _hearts_v1_DominoTrickEnd__Output } from '../../hearts/v1/DominoTrickEnd';
import type { Long } from '@grpc/proto-loader';

export interface PlayMatchRequest {
  'request_id'?: (number | string | Long);
  'match_start'?: (_hearts_v1_MatchStart | null);
  'pass_cards'?: (_hearts_v1_PassCardsQuery | null);
  'play_card'?: (_hearts_v1_PlayCardQuery | null);
  'hand_start'?: (_hearts_v1_HandStart | null);
  'trick_end'?: (_hearts_v1_TrickEnd | null);
  'hand_end'?: (_hearts_v1_HandEnd | null);
  'match_end'?: (_hearts_v1_MatchEnd | null);
  'reveal_card'?: (_hearts_v1_RevealCardQuery | null);
  'call_pass'?: (_hearts_v1_CallPassQuery | null);
  'bid'?: (_hearts_v1_BidQuery | null);
  'name_suit'?: (_hearts_v1_NameSuitQuery | null);
  'moon_choice'?: (_hearts_v1_MoonChoiceQuery | null);
  'pledge'?: (_hearts_v1_PledgeQuery | null);
  'expose'?: (_hearts_v1_ExposeQuery | null);
  'refuse_queen'?: (_hearts_v1_RefuseQueenQuery | null);
  'replace_pass'?: (_hearts_v1_ReplacePassQuery | null);
  'domino_trick_end'?: (_hearts_v1_DominoTrickEnd | null);
  'kind'?: "match_start"|"pass_cards"|"play_card"|"reveal_card"|"call_pass"|"bid"|"name_suit"|"moon_choice"|"pledge"|"refuse_queen"|"replace_pass"|"expose"|"hand_start"|"trick_end"|"hand_end"|"match_end"|"domino_trick_end";
}

export interface PlayMatchRequest__Output {
  'request_id': (string);
  'match_start'?: (_hearts_v1_MatchStart__Output | null);
  'pass_cards'?: (_hearts_v1_PassCardsQuery__Output | null);
  'play_card'?: (_hearts_v1_PlayCardQuery__Output | null);
  'hand_start'?: (_hearts_v1_HandStart__Output | null);
  'trick_end'?: (_hearts_v1_TrickEnd__Output | null);
  'hand_end'?: (_hearts_v1_HandEnd__Output | null);
  'match_end'?: (_hearts_v1_MatchEnd__Output | null);
  'reveal_card'?: (_hearts_v1_RevealCardQuery__Output | null);
  'call_pass'?: (_hearts_v1_CallPassQuery__Output | null);
  'bid'?: (_hearts_v1_BidQuery__Output | null);
  'name_suit'?: (_hearts_v1_NameSuitQuery__Output | null);
  'moon_choice'?: (_hearts_v1_MoonChoiceQuery__Output | null);
  'pledge'?: (_hearts_v1_PledgeQuery__Output | null);
  'expose'?: (_hearts_v1_ExposeQuery__Output | null);
  'refuse_queen'?: (_hearts_v1_RefuseQueenQuery__Output | null);
  'replace_pass'?: (_hearts_v1_ReplacePassQuery__Output | null);
  'domino_trick_end'?: (_hearts_v1_DominoTrickEnd__Output | null);
  'kind'?: "match_start"|"pass_cards"|"play_card"|"reveal_card"|"call_pass"|"bid"|"name_suit"|"moon_choice"|"pledge"|"refuse_queen"|"replace_pass"|"expose"|"hand_start"|"trick_end"|"hand_end"|"match_end"|"domino_trick_end";
}
