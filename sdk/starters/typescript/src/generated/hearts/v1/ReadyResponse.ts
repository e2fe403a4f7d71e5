// Original file: proto/hearts/v1/bot.proto


export interface ReadyResponse {
  'bot_name'?: (string);
  'sdk_version'?: (string);
}

export interface ReadyResponse__Output {
  'bot_name': (string);
  'sdk_version': (string);
}
