/**
 * Runs `callback` in a task of its own, as soon as the browser has one free: what React's scheduler
 * does (with a MessageChannel, not a timer, so that neither timer clamping in a background tab nor
 * a test's fake clock holds it back).
 */
export function inNextTask(callback: () => void): void {
  const channel = new MessageChannel();
  channel.port1.onmessage = () => {
    channel.port1.close();
    callback();
  };
  channel.port2.postMessage(null);
}
