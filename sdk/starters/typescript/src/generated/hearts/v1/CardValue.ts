// Original file: proto/hearts/v1/rules.proto


export interface CardValue {
  'card'?: (string);
  'points'?: (number);
}

export interface CardValue__Output {
  'card': (string);
  'points': (number);
}
