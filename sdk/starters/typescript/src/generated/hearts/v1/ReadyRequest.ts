// Original file: proto/hearts/v1/bot.proto


export interface ReadyRequest {
}

export interface ReadyRequest__Output {
}
