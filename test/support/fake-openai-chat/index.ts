// Public surface of the chat-completions stand-in: start it with the session's turns, point OpenCode's provider at `url`.
export {
  kindOf,
  startFakeChat,
  type ChatMessage,
  type ChatReply,
  type ChatRequest,
  type ChatStep,
  type FakeChat,
  type LoggedChatRequest,
  type ToolCall,
} from './server';
export { estimateTokens } from './usage';
