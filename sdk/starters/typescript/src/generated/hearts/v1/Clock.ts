// Original file: proto/hearts/v1/game.proto

import type { Duration as _google_protobuf_Duration, Duration__Output as _google_protobuf_Duration__Output } from '../../google/protobuf/Duration';

export interface Clock {
  'per_decision'?: (_google_protobuf_Duration | null);
  'bank_remaining'?: (_google_protobuf_Duration | null);
}

export interface Clock__Output {
  'per_decision': (_google_protobuf_Duration__Output | null);
  'bank_remaining': (_google_protobuf_Duration__Output | null);
}
