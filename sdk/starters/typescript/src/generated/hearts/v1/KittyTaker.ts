// Original file: proto/hearts/v1/rules.proto

export const KittyTaker = {
  KITTY_TAKER_UNSPECIFIED: 'KITTY_TAKER_UNSPECIFIED',
  KITTY_TAKER_FIRST_TRICK: 'KITTY_TAKER_FIRST_TRICK',
  KITTY_TAKER_FIRST_POINTS: 'KITTY_TAKER_FIRST_POINTS',
} as const;

export type KittyTaker =
  | 'KITTY_TAKER_UNSPECIFIED'
  | 0
  | 'KITTY_TAKER_FIRST_TRICK'
  | 1
  | 'KITTY_TAKER_FIRST_POINTS'
  | 2

export type KittyTaker__Output = typeof KittyTaker[keyof typeof KittyTaker]
