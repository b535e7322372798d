type PromiseWithResolvers<T> = {
  promise: Promise<T>
  resolve: (value: T | PromiseLike<T>) => void
  reject: (reason?: unknown) => void
}

/**
 * prool calls `Promise.withResolvers` (ES2024: Node 22 and later) whenever it starts, stops or pools an instance. On
 * Node 20 this adds the standard one (same behaviour, same property attributes); where it exists it is left alone.
 */
export function installPromiseWithResolvers(): void {
  if (typeof (Promise as { withResolvers?: unknown }).withResolvers === 'function') return
  Object.defineProperty(Promise, 'withResolvers', {
    configurable: true,
    enumerable: false,
    writable: true,
    value: function withResolvers<T>(this: PromiseConstructor): PromiseWithResolvers<T> {
      let resolve!: PromiseWithResolvers<T>['resolve']
      let reject!: PromiseWithResolvers<T>['reject']
      const promise = new this<T>((res, rej) => {
        resolve = res
        reject = rej
      })
      return { promise, resolve, reject }
    },
  })
}
