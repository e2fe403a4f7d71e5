// Original file: proto/hearts/v1/game.proto


export interface PledgeAnswer {
  'pledge'?: (boolean);
}

export interface PledgeAnswer__Output {
  'pledge': (boolean);
}
