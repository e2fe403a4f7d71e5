// Original file: proto/hearts/v1/rules.proto


export interface ScoreAdjustment {
  'from_score'?: (number);
  'to_score'?: (number);
}

export interface ScoreAdjustment__Output {
  'from_score': (number);
  'to_score': (number);
}
