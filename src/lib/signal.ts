// A small in-process signal: listeners subscribe and are called, in order, each time it is emitted.
export interface Signal<T> {
  emit(value: T): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: (value: T) => void): () => void;
}

export function createSignal<T>(): Signal<T> {
  const listeners = new Set<(value: T) => void>();
  return {
    emit(value) {
      for (const listener of [...listeners]) listener(value);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
