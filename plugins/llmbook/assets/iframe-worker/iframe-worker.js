/* A Web Worker stand-in that runs the worker's script in a hidden iframe.
 *
 * Pages opened from file:// may not start Web Workers (their origin is opaque), and Material's
 * search runs in one. On file:// this replaces `Worker` with `IFrameWorker`: the script runs in an
 * about:blank iframe, which shares the page's origin, with the globals a worker script expects
 * (`postMessage` back to the page, `importScripts`, "message" events on its global scope). Material's
 * search worker notices `parent.IFrameWorker` and finds its lunr files next to its own <script>.
 * Messages are copied (structuredClone) and delivered asynchronously, as between real workers.
 */
(function () {
  "use strict";

  class IFrameWorker extends EventTarget {
    constructor(url) {
      super();
      this.onmessage = null;
      this.onerror = null;
      this._url = new URL(String(url), document.baseURI).href;
      this._queue = [];
      this._frame = document.createElement("iframe");
      this._frame.setAttribute("aria-hidden", "true");
      this._frame.tabIndex = -1;
      this._frame.style.display = "none";
      (document.body || document.documentElement).appendChild(this._frame);

      const scope = this._frame.contentWindow;
      const load = (src) => new Promise((resolve, reject) => {
        const script = scope.document.createElement("script");
        script.src = new URL(src, this._url).href;
        script.onload = resolve;
        script.onerror = () => reject(new Error(`iframe-worker: cannot load ${script.src}`));
        scope.document.head.appendChild(script);
      });
      // Real workers load synchronously; Material awaits the result, so a promise works as well.
      scope.importScripts = (...urls) =>
        urls.reduce((done, src) => done.then(() => load(src)), Promise.resolve());
      scope.postMessage = (data) => this._emit("message", { data: structuredClone(data) });
      scope.addEventListener("error", (event) =>
        this._emit("error", { message: event.message, filename: event.filename, lineno: event.lineno }));

      load(this._url).then(
        () => { const queued = this._queue; this._queue = null; queued.forEach((m) => this._deliver(m)); },
        (error) => this._emit("error", { message: error.message, filename: this._url }));
    }

    postMessage(data) {
      if (this._queue) this._queue.push(data);
      else this._deliver(data);
    }

    terminate() {
      this._frame.remove();
      this._queue = [];
    }

    _deliver(data) {
      const scope = this._frame.contentWindow;
      if (!scope) return; // terminated
      const copy = scope.structuredClone(data); // objects of the worker's own realm
      setTimeout(() => scope.dispatchEvent(new scope.MessageEvent("message", { data: copy })), 0);
    }

    _emit(type, init) {
      setTimeout(() => {
        const event = type === "message" ? new MessageEvent(type, init) : new ErrorEvent(type, init);
        if (typeof this["on" + type] === "function") this["on" + type](event);
        this.dispatchEvent(event);
      }, 0);
    }
  }

  window.IFrameWorker = IFrameWorker;
  if (location.protocol === "file:") window.Worker = IFrameWorker;
})();
