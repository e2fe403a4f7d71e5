// Original file: proto/hearts/v1/game.proto


export interface HandEnd {
  'hand_number'?: (number);
  'hand_scores'?: (number)[];
  'scores'?: (number)[];
  'moon_shooter'?: (number);
  'kitty'?: (string)[];
  '_moon_shooter'?: "moon_shooter";
}

export interface HandEnd__Output {
  'hand_number': (number);
  'hand_scores': (number)[];
  'scores': (number)[];
  'moon_shooter'?: (number);
  'kitty': (string)[];
  '_moon_shooter'?: "moon_shooter";
}
