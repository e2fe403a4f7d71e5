// Original file: proto/hearts/v1/bot.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { PlayMatchRequest as _hearts_v1_PlayMatchRequest, PlayMatchRequest__Output as _hearts_v1_PlayMatchRequest__Output } from '../../hearts/v1/PlayMatchRequest';
import type { PlayMatchResponse as _hearts_v1_PlayMatchResponse, PlayMatchResponse__Output as _hearts_v1_PlayMatchResponse__Output } from '../../hearts/v1/PlayMatchResponse';
import type { ReadyRequest as _hearts_v1_ReadyRequest, ReadyRequest__Output as _hearts_v1_ReadyRequest__Output } from '../../hearts/v1/ReadyRequest';
import type { ReadyResponse as _hearts_v1_ReadyResponse, ReadyResponse__Output as _hearts_v1_ReadyResponse__Output } from '../../hearts/v1/ReadyResponse';

export interface BotServiceClient extends grpc.Client {
  PlayMatch(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_hearts_v1_PlayMatchRequest, _hearts_v1_PlayMatchResponse__Output>;
  PlayMatch(options?: grpc.CallOptions): grpc.ClientDuplexStream<_hearts_v1_PlayMatchRequest, _hearts_v1_PlayMatchResponse__Output>;
  playMatch(metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientDuplexStream<_hearts_v1_PlayMatchRequest, _hearts_v1_PlayMatchResponse__Output>;
  playMatch(options?: grpc.CallOptions): grpc.ClientDuplexStream<_hearts_v1_PlayMatchRequest, _hearts_v1_PlayMatchResponse__Output>;
  
  Ready(argument: _hearts_v1_ReadyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hearts_v1_ReadyResponse__Output>): grpc.ClientUnaryCall;
  Ready(argument: _hearts_v1_ReadyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hearts_v1_ReadyResponse__Output>): grpc.ClientUnaryCall;
  Ready(argument: _hearts_v1_ReadyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hearts_v1_ReadyResponse__Output>): grpc.ClientUnaryCall;
  Ready(argument: _hearts_v1_ReadyRequest, callback: grpc.requestCallback<_hearts_v1_ReadyResponse__Output>): grpc.ClientUnaryCall;
  ready(argument: _hearts_v1_ReadyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_hearts_v1_ReadyResponse__Output>): grpc.ClientUnaryCall;
  ready(argument: _hearts_v1_ReadyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_hearts_v1_ReadyResponse__Output>): grpc.ClientUnaryCall;
  ready(argument: _hearts_v1_ReadyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_hearts_v1_ReadyResponse__Output>): grpc.ClientUnaryCall;
  ready(argument: _hearts_v1_ReadyRequest, callback: grpc.requestCallback<_hearts_v1_ReadyResponse__Output>): grpc.ClientUnaryCall;
  
}

export interface BotServiceHandlers extends grpc.UntypedServiceImplementation {
  PlayMatch: grpc.handleBidiStreamingCall<_hearts_v1_PlayMatchRequest__Output, _hearts_v1_PlayMatchResponse>;
  
  Ready: grpc.handleUnaryCall<_hearts_v1_ReadyRequest__Output, _hearts_v1_ReadyResponse>;
  
}

export interface BotServiceDefinition extends grpc.ServiceDefinition {
  PlayMatch: MethodDefinition<_hearts_v1_PlayMatchRequest, _hearts_v1_PlayMatchResponse, _hearts_v1_PlayMatchRequest__Output, _hearts_v1_PlayMatchResponse__Output>
  Ready: MethodDefinition<_hearts_v1_ReadyRequest, _hearts_v1_ReadyResponse, _hearts_v1_ReadyRequest__Output, _hearts_v1_ReadyResponse__Output>
}
