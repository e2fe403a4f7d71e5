import type * as grpc from '@grpc/grpc-js';
import type { EnumTypeDefinition, MessageTypeDefinition } from '@grpc/proto-loader';

import type { BotServiceClient as _hearts_v1_BotServiceClient, BotServiceDefinition as _hearts_v1_BotServiceDefinition } from './hearts/v1/BotService';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  google: {
    protobuf: {
      Duration: MessageTypeDefinition
    }
  }
  hearts: {
    v1: {
      Bid: MessageTypeDefinition
      BidAnswer: MessageTypeDefinition
      BidQuery: MessageTypeDefinition
      BotService: SubtypeConstructor<typeof grpc.Client, _hearts_v1_BotServiceClient> & { service: _hearts_v1_BotServiceDefinition }
      BrokenBy: EnumTypeDefinition
      CallPassAnswer: MessageTypeDefinition
      CallPassQuery: MessageTypeDefinition
      CardValue: MessageTypeDefinition
      Clock: MessageTypeDefinition
      DealerRule: EnumTypeDefinition
      DominoSeats: MessageTypeDefinition
      DominoTable: MessageTypeDefinition
      DominoTrickEnd: MessageTypeDefinition
      ExposeAnswer: MessageTypeDefinition
      ExposeQuery: MessageTypeDefinition
      Exposure: MessageTypeDefinition
      FirstTrick: EnumTypeDefinition
      HandEnd: MessageTypeDefinition
      HandStart: MessageTypeDefinition
      HandState: MessageTypeDefinition
      JokerKind: EnumTypeDefinition
      KittyTaker: EnumTypeDefinition
      KittyVisibility: EnumTypeDefinition
      LeadRule: EnumTypeDefinition
      MatchEnd: MessageTypeDefinition
      MatchEndReason: EnumTypeDefinition
      MatchStart: MessageTypeDefinition
      MatchStartAnswer: MessageTypeDefinition
      MoonChoiceAnswer: MessageTypeDefinition
      MoonChoiceQuery: MessageTypeDefinition
      MoonRule: EnumTypeDefinition
      NameSuitAnswer: MessageTypeDefinition
      NameSuitQuery: MessageTypeDefinition
      Opening: EnumTypeDefinition
      PassCardsAnswer: MessageTypeDefinition
      PassCardsQuery: MessageTypeDefinition
      PassDirection: EnumTypeDefinition
      PennyCard: MessageTypeDefinition
      PennyMove: MessageTypeDefinition
      PennyPlay: EnumTypeDefinition
      PennyRound: MessageTypeDefinition
      PlayCardAnswer: MessageTypeDefinition
      PlayCardQuery: MessageTypeDefinition
      PlayMatchRequest: MessageTypeDefinition
      PlayMatchResponse: MessageTypeDefinition
      Player: MessageTypeDefinition
      PledgeAnswer: MessageTypeDefinition
      PledgeQuery: MessageTypeDefinition
      QueenOffer: MessageTypeDefinition
      ReadyRequest: MessageTypeDefinition
      ReadyResponse: MessageTypeDefinition
      RefuseQueenAnswer: MessageTypeDefinition
      RefuseQueenQuery: MessageTypeDefinition
      ReplacePassAnswer: MessageTypeDefinition
      ReplacePassQuery: MessageTypeDefinition
      RevealCardAnswer: MessageTypeDefinition
      RevealCardQuery: MessageTypeDefinition
      Rules: MessageTypeDefinition
      ScoreAdjustment: MessageTypeDefinition
      ScoringSuitChoice: EnumTypeDefinition
      Settlement: EnumTypeDefinition
      Trick: MessageTypeDefinition
      TrickEnd: MessageTypeDefinition
    }
  }
}

