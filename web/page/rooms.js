// Kairo's room client: the browser's side of a netplay room on a lobby server (`kairo lobby`,
// a matchbox_signaling full-mesh server), so that the page and native peers (`kairo netplay
// --room`, `kairo headless --net-room`, which use matchbox_socket) meet in the same room.
//
// The lobby's WebSocket (SERVER/ROOM) speaks matchbox_protocol's JSON: from the server
// {"IdAssigned": id}, {"NewPeer": id}, {"PeerLeft": id}, {"Signal": {"sender": id, "data": s}};
// to it {"Signal": {"receiver": id, "data": s}} and "KeepAlive" (every 10 s). A signal `s` is
// {"Offer": sdp}, {"Answer": sdp} or {"IceCandidate": json}, where json is the JSON text of
// RTCIceCandidate.toJSON(), or "null" once a side has no more candidates.
//
// The server tells the members already in the room about a newcomer (NewPeer) and they make
// the offers; the newcomer answers whoever offers. Each side sends its own candidates only
// after its offer or answer (matchbox's native socket drops candidates that come before),
// and keeps the other side's until its remote description is set.
//
// Each pair of members has one RTCPeerConnection with two negotiated data channels, as
// matchbox_socket makes them: id 0 unreliable and unordered (the greeting and GGRS), id 1
// reliable and ordered (spectators' streams). A member counts as present once both are open,
// and gone when either closes, the connection fails or the server says it left.
//
// Nothing here knows the game's messages: the machine's netplay code (Rust, in the
// WebAssembly runtime) reads and writes every byte.
'use strict';
window.KairoRooms = (function () {
  const KEEP_ALIVE_MS = 10000;
  const CHANNELS = [
    { label: 'matchbox_socket_0', options: { negotiated: true, id: 0, ordered: false, maxRetransmits: 0 } },
    { label: 'matchbox_socket_1', options: { negotiated: true, id: 1, ordered: true } },
  ];
  // Candidates kept from senders not met yet (before their offer): at most this many each,
  // from at most this many senders, so a stranger cannot fill memory.
  const EARLY_CANDIDATES = 64;
  const EARLY_SENDERS = 8;
  const CODE_ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
  const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

  // A room code as `kairo netplay` makes them: 6 letters and digits hard to misread.
  function newRoomCode() {
    const bytes = new Uint32Array(6);
    crypto.getRandomValues(bytes);
    return Array.from(bytes, (n) => CODE_ALPHABET[n % CODE_ALPHABET.length]).join('');
  }

  // The lobby's id (a UUID) as the four 32-bit words of its 128-bit number, most
  // significant first: how the runtime names peers (matchbox's Uuid::as_u128).
  function idWords(id) {
    const hex = id.replace(/-/g, '');
    return [0, 8, 16, 24].map((at) => parseInt(hex.slice(at, at + 8), 16) >>> 0);
  }

  // The id back from the four words.
  function idFromWords(words) {
    const hex = words.map((w) => (w >>> 0).toString(16).padStart(8, '0')).join('');
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20),
      hex.slice(20)].join('-');
  }

  function validId(id) {
    return typeof id === 'string' && UUID.test(id);
  }

  class Peer {
    constructor(room, id) {
      this.room = room;
      this.id = id;
      this.pc = new RTCPeerConnection(room.rtcConfig);
      this.channels = CHANNELS.map(({ label, options }) => this.openChannel(label, options));
      this.opened = 0;
      this.present = false;
      this.closed = false;
      // Our candidates, held until our offer or answer has gone.
      this.described = false;
      this.localCandidates = [];
      // Theirs, held until their description is set.
      this.remoteSet = false;
      this.remoteCandidates = [];
      // Signals are handled one at a time, each after the last one's promises.
      this.chain = Promise.resolve();
      this.pc.onicecandidate = (event) => {
        const candidate = event.candidate;
        // An empty candidate only marks the end of one section's candidates.
        if (candidate && !candidate.candidate) return;
        const json = candidate ? JSON.stringify(candidate.toJSON()) : 'null';
        if (this.described) this.signal({ IceCandidate: json });
        else this.localCandidates.push(json);
      };
      this.pc.onconnectionstatechange = () => {
        const state = this.pc.connectionState;
        room.trace(id.slice(0, 8) + ': connection ' + state);
        if (state === 'failed' || state === 'closed') this.close();
      };
      // Firefox drops connections that have no handler here (matchbox says the same).
      this.pc.oniceconnectionstatechange = () => {};
    }

    openChannel(label, options) {
      const channel = this.pc.createDataChannel(label, options);
      channel.binaryType = 'arraybuffer';
      channel.onopen = () => {
        this.room.trace(this.id.slice(0, 8) + ': channel ' + options.id + ' open');
        this.opened++;
        if (this.opened === CHANNELS.length && !this.present && !this.closed) {
          this.present = true;
          this.room.handlers.present(this.id, true);
        }
      };
      channel.onclose = () => this.close();
      channel.onmessage = (event) => {
        if (this.present && event.data instanceof ArrayBuffer) {
          this.room.handlers.message(this.id, new Uint8Array(event.data));
        }
      };
      return channel;
    }

    // How the peer is reached, once the connection stands: 'relay' (through a TURN server,
    // ours or theirs), 'direct', or null while unknown.
    async route() {
      const stats = await this.pc.getStats();
      let pair = null;
      stats.forEach((report) => {
        if (report.type === 'transport' && report.selectedCandidatePairId) {
          pair = stats.get(report.selectedCandidatePairId);
        }
      });
      if (!pair) {
        stats.forEach((report) => {
          if (report.type === 'candidate-pair' && report.nominated && report.state === 'succeeded') pair = report;
        });
      }
      if (!pair) return null;
      const local = stats.get(pair.localCandidateId);
      const remote = stats.get(pair.remoteCandidateId);
      if (!local || !remote) return null;
      return local.candidateType === 'relay' || remote.candidateType === 'relay' ? 'relay' : 'direct';
    }

    signal(data) {
      this.room.trace('to ' + this.id.slice(0, 8) + ': ' + Object.keys(data)[0] +
        (data.IceCandidate ? ' ' + data.IceCandidate : ''));
      this.room.request({ Signal: { receiver: this.id, data } });
    }

    described_() {
      this.described = true;
      for (const json of this.localCandidates) this.signal({ IceCandidate: json });
      this.localCandidates = [];
    }

    async remoteDescribed(description) {
      await this.pc.setRemoteDescription(description);
      this.remoteSet = true;
      for (const candidate of this.remoteCandidates) await this.addCandidate(candidate);
      this.remoteCandidates = [];
    }

    async addCandidate(json) {
      let candidate;
      try {
        candidate = JSON.parse(json);
      } catch (error) {
        return;
      }
      // "null": the other side has no more; the connection does not need telling.
      if (!candidate || typeof candidate !== 'object') return;
      try {
        await this.pc.addIceCandidate(candidate);
      } catch (error) {
        console.warn('kairo: room: a candidate from ' + this.id.slice(0, 8) + ' was refused: ' + error);
      }
    }

    // Called when the server says this peer is new: we offer.
    offer() {
      this.then(async () => {
        const offer = await this.pc.createOffer();
        await this.pc.setLocalDescription(offer);
        this.signal({ Offer: this.pc.localDescription.sdp });
        this.described_();
      });
    }

    // A signal from this peer.
    receive(data) {
      this.room.trace('from ' + this.id.slice(0, 8) + ': ' + Object.keys(data)[0] +
        (typeof data.IceCandidate === 'string' ? ' ' + data.IceCandidate : ''));
      if (typeof data.Offer === 'string') {
        this.then(async () => {
          await this.remoteDescribed({ type: 'offer', sdp: data.Offer });
          const answer = await this.pc.createAnswer();
          await this.pc.setLocalDescription(answer);
          this.signal({ Answer: this.pc.localDescription.sdp });
          this.described_();
        });
      } else if (typeof data.Answer === 'string') {
        this.then(async () => {
          if (this.pc.signalingState === 'have-local-offer') {
            await this.remoteDescribed({ type: 'answer', sdp: data.Answer });
          }
        });
      } else if (typeof data.IceCandidate === 'string') {
        const json = data.IceCandidate;
        this.then(async () => {
          if (this.remoteSet) await this.addCandidate(json);
          else if (this.remoteCandidates.length < EARLY_CANDIDATES) this.remoteCandidates.push(json);
        });
      }
    }

    then(step) {
      this.chain = this.chain.then(() => (this.closed ? undefined : step())).catch((error) => {
        console.warn('kairo: room: cannot connect to ' + this.id.slice(0, 8) + ': ' + error);
        this.close();
      });
    }

    send(reliable, bytes) {
      const channel = this.channels[reliable ? 1 : 0];
      if (!this.present || channel.readyState !== 'open') return false;
      try {
        channel.send(bytes);
        return true;
      } catch (error) {
        return false;
      }
    }

    close() {
      if (this.closed) return;
      this.closed = true;
      const was = this.present;
      this.present = false;
      for (const channel of this.channels) {
        channel.onclose = null;
        channel.onmessage = null;
        try { channel.close(); } catch (error) { /* already closed */ }
      }
      try { this.pc.close(); } catch (error) { /* already closed */ }
      if (this.room.peers.get(this.id) === this) this.room.peers.delete(this.id);
      if (was) this.room.handlers.present(this.id, false);
    }
  }

  // A member of the room at `url` (SERVER/ROOM), its peer connections made with `rtcConfig`
  // (RTCConfiguration: iceServers, iceTransportPolicy). `handlers`: id(myId) once the server has
  // given this member its id; present(id, bool) as peers' channels open and close;
  // message(id, Uint8Array) for each message from a present peer; closed(reason, joined)
  // when the lobby's connection ends (the peers met so far stay connected); and, if given,
  // trace(line) for each step of the signalling (the page's #...&trace=1).
  class Room {
    constructor(url, rtcConfig, handlers) {
      this.url = url;
      this.rtcConfig = rtcConfig;
      this.handlers = handlers;
      this.peers = new Map();
      this.early = new Map();
      this.myId = null;
      this.ended = false;
      this.socket = new WebSocket(url);
      this.keepAlive = null;
      this.socket.onopen = () => {
        this.keepAlive = setInterval(() => this.request('KeepAlive'), KEEP_ALIVE_MS);
      };
      this.socket.onmessage = (event) => {
        if (typeof event.data === 'string') this.event(event.data);
      };
      this.socket.onclose = (event) => {
        clearInterval(this.keepAlive);
        if (this.ended) return;
        this.ended = true;
        const reason = this.myId
          ? 'the lobby server closed the connection'
          : 'cannot join the room at ' + url + (event.code === 1006 ? ': no answer or refused' : ' (' + event.code + ')');
        this.handlers.closed(reason, this.myId !== null);
      };
    }

    trace(line) {
      if (this.handlers.trace) this.handlers.trace(line);
    }

    request(message) {
      if (this.socket.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
    }

    event(text) {
      let message;
      try {
        message = JSON.parse(text);
      } catch (error) {
        return;
      }
      if (!message || typeof message !== 'object') return;
      if (!('Signal' in message)) this.trace('lobby: ' + text);
      if ('IdAssigned' in message) {
        if (this.myId === null && validId(message.IdAssigned)) {
          this.myId = message.IdAssigned;
          this.handlers.id(this.myId);
        }
      } else if ('NewPeer' in message) {
        const id = message.NewPeer;
        if (!validId(id) || id === this.myId) return;
        const old = this.peers.get(id);
        if (old) old.close();
        const peer = new Peer(this, id);
        this.peers.set(id, peer);
        peer.offer();
      } else if ('PeerLeft' in message) {
        const peer = this.peers.get(message.PeerLeft);
        if (peer) peer.close();
        this.early.delete(message.PeerLeft);
      } else if (message.Signal && typeof message.Signal === 'object') {
        this.signal(message.Signal.sender, message.Signal.data);
      }
    }

    signal(sender, data) {
      if (!validId(sender) || sender === this.myId || !data || typeof data !== 'object') return;
      let peer = this.peers.get(sender);
      if (!peer && typeof data.Offer === 'string') {
        // Someone already in the room offers to connect: answer.
        peer = new Peer(this, sender);
        this.peers.set(sender, peer);
        for (const json of this.early.get(sender) || []) peer.remoteCandidates.push(json);
        this.early.delete(sender);
      }
      if (peer) {
        peer.receive(data);
      } else if (typeof data.IceCandidate === 'string') {
        if (!this.early.has(sender) && this.early.size >= EARLY_SENDERS) return;
        const kept = this.early.get(sender) || [];
        if (kept.length < EARLY_CANDIDATES) kept.push(data.IceCandidate);
        this.early.set(sender, kept);
      }
    }

    // Sends `bytes` to a present peer on channel 1 (reliable) or 0; whether it went.
    // How the present member `id` is reached ('relay', 'direct' or null): see Peer.route.
    async route(id) {
      const peer = this.peers.get(id);
      return peer && peer.present ? peer.route() : null;
    }

    send(id, reliable, bytes) {
      const peer = this.peers.get(id);
      return peer ? peer.send(reliable, bytes) : false;
    }

    // Leaves the room: the server tells the others, and every connection closes.
    close() {
      this.ended = true;
      clearInterval(this.keepAlive);
      for (const peer of Array.from(this.peers.values())) peer.close();
      try { this.socket.close(); } catch (error) { /* already closed */ }
    }
  }

  return { Room, newRoomCode, idWords, idFromWords };
})();
