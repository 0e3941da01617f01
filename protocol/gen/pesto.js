/*eslint-disable block-scoped-var, id-length, no-control-regex, no-magic-numbers, no-mixed-operators, no-prototype-builtins, no-redeclare, no-shadow, no-var, sort-vars, default-case, jsdoc/require-param*/
import $protobuf from "protobufjs/minimal.js";

// Common aliases
const $Reader = $protobuf.Reader, $Writer = $protobuf.Writer, $util = $protobuf.util;
const $Object = $util.global.Object, $undefined = $util.global.undefined, $Error = $util.global.Error, $RangeError = $util.global.RangeError;

// Exported root namespace
const $root = $protobuf.roots["default"] || ($protobuf.roots["default"] = {});

export const pesto = $root.pesto = (() => {

    /**
     * Namespace pesto.
     * @exports pesto
     * @namespace
     */
    const pesto = {};

    pesto.Ts = (function() {

        /**
         * Properties of a Ts.
         * @typedef {Object} pesto.Ts.$Properties
         * @property {number|null} [micros] Ts micros
         * @property {number|null} [client] Ts client
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Ts.
         * @memberof pesto
         * @interface ITs
         * @augments pesto.Ts.$Properties
         * @deprecated Use pesto.Ts.$Properties instead.
         */

        /**
         * Shape of a Ts.
         * @typedef {pesto.Ts.$Properties} pesto.Ts.$Shape
         */

        /**
         * Constructs a new Ts.
         * @memberof pesto
         * @classdesc Represents a Ts.
         * @constructor
         * @param {pesto.Ts.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Ts = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Ts micros.
         * @member {number} micros
         * @memberof pesto.Ts
         * @instance
         */
        Ts.prototype.micros = 0;

        /**
         * Ts client.
         * @member {number} client
         * @memberof pesto.Ts
         * @instance
         */
        Ts.prototype.client = 0;

        /**
         * Encodes the specified Ts message. Does not implicitly {@link pesto.Ts.verify|verify} messages.
         * @function encode
         * @memberof pesto.Ts
         * @static
         * @param {pesto.Ts.$Properties} message Ts message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Ts.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.micros != null && $Object.hasOwnProperty.call(message, "micros") && !$Object.is(message.micros, 0))
                writer.uint32(/* id 1, wireType 1 =*/9).double(message.micros);
            if (message.client != null && $Object.hasOwnProperty.call(message, "client") && message.client !== 0)
                writer.uint32(/* id 2, wireType 0 =*/16).uint32(message.client);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Ts message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Ts
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Ts & pesto.Ts.$Shape} Ts
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Ts.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Ts();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 1)
                            break;
                        if (!$Object.is(value = reader.double(), 0))
                            message.micros = value;
                        else
                            delete message.micros;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.client = value;
                        else
                            delete message.client;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Ts
         * @function getTypeUrl
         * @memberof pesto.Ts
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Ts.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Ts";
        };

        return Ts;
    })();

    /**
     * Decision enum.
     * @name pesto.Decision
     * @enum {number}
     * @property {number} COMMIT=0 COMMIT value
     * @property {number} ABSTAIN=1 ABSTAIN value
     * @property {number} ABORT=2 ABORT value
     */
    pesto.Decision = (function() {
        const valuesById = $Object.create(null), values = $Object.create(valuesById);
        values[valuesById[0] = "COMMIT"] = 0;
        values[valuesById[1] = "ABSTAIN"] = 1;
        values[valuesById[2] = "ABORT"] = 2;
        return values;
    })();

    pesto.ReadEntry = (function() {

        /**
         * Properties of a ReadEntry.
         * @typedef {Object} pesto.ReadEntry.$Properties
         * @property {Uint8Array|null} [key] ReadEntry key
         * @property {pesto.Ts.$Properties|null} [version] ReadEntry version
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ReadEntry.
         * @memberof pesto
         * @interface IReadEntry
         * @augments pesto.ReadEntry.$Properties
         * @deprecated Use pesto.ReadEntry.$Properties instead.
         */

        /**
         * Shape of a ReadEntry.
         * @typedef {pesto.ReadEntry.$Properties} pesto.ReadEntry.$Shape
         */

        /**
         * Constructs a new ReadEntry.
         * @memberof pesto
         * @classdesc Represents a ReadEntry.
         * @constructor
         * @param {pesto.ReadEntry.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ReadEntry = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ReadEntry key.
         * @member {Uint8Array} key
         * @memberof pesto.ReadEntry
         * @instance
         */
        ReadEntry.prototype.key = $util.newBuffer([]);

        /**
         * ReadEntry version.
         * @member {pesto.Ts.$Properties|null|undefined} version
         * @memberof pesto.ReadEntry
         * @instance
         */
        ReadEntry.prototype.version = null;

        /**
         * Encodes the specified ReadEntry message. Does not implicitly {@link pesto.ReadEntry.verify|verify} messages.
         * @function encode
         * @memberof pesto.ReadEntry
         * @static
         * @param {pesto.ReadEntry.$Properties} message ReadEntry message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ReadEntry.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key.length)
                writer.uint32(/* id 1, wireType 2 =*/10).bytes(message.key);
            if (message.version != null && $Object.hasOwnProperty.call(message, "version"))
                $root.pesto.Ts.encode(message.version, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ReadEntry message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.ReadEntry
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.ReadEntry & pesto.ReadEntry.$Shape} ReadEntry
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ReadEntry.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.ReadEntry();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.key = value;
                        else
                            delete message.key;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.version = $root.pesto.Ts.decode(reader, reader.size(), $undefined, _depth + 1, message.version);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for ReadEntry
         * @function getTypeUrl
         * @memberof pesto.ReadEntry
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        ReadEntry.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.ReadEntry";
        };

        return ReadEntry;
    })();

    pesto.WriteEntry = (function() {

        /**
         * Properties of a WriteEntry.
         * @typedef {Object} pesto.WriteEntry.$Properties
         * @property {Uint8Array|null} [key] WriteEntry key
         * @property {Uint8Array|null} [value] WriteEntry value
         * @property {boolean|null} [deleted] WriteEntry deleted
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a WriteEntry.
         * @memberof pesto
         * @interface IWriteEntry
         * @augments pesto.WriteEntry.$Properties
         * @deprecated Use pesto.WriteEntry.$Properties instead.
         */

        /**
         * Shape of a WriteEntry.
         * @typedef {pesto.WriteEntry.$Properties} pesto.WriteEntry.$Shape
         */

        /**
         * Constructs a new WriteEntry.
         * @memberof pesto
         * @classdesc Represents a WriteEntry.
         * @constructor
         * @param {pesto.WriteEntry.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const WriteEntry = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * WriteEntry key.
         * @member {Uint8Array} key
         * @memberof pesto.WriteEntry
         * @instance
         */
        WriteEntry.prototype.key = $util.newBuffer([]);

        /**
         * WriteEntry value.
         * @member {Uint8Array} value
         * @memberof pesto.WriteEntry
         * @instance
         */
        WriteEntry.prototype.value = $util.newBuffer([]);

        /**
         * WriteEntry deleted.
         * @member {boolean} deleted
         * @memberof pesto.WriteEntry
         * @instance
         */
        WriteEntry.prototype.deleted = false;

        /**
         * Encodes the specified WriteEntry message. Does not implicitly {@link pesto.WriteEntry.verify|verify} messages.
         * @function encode
         * @memberof pesto.WriteEntry
         * @static
         * @param {pesto.WriteEntry.$Properties} message WriteEntry message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        WriteEntry.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key.length)
                writer.uint32(/* id 1, wireType 2 =*/10).bytes(message.key);
            if (message.value != null && $Object.hasOwnProperty.call(message, "value") && message.value.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.value);
            if (message.deleted != null && $Object.hasOwnProperty.call(message, "deleted") && message.deleted !== false)
                writer.uint32(/* id 3, wireType 0 =*/24).bool(message.deleted);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a WriteEntry message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.WriteEntry
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.WriteEntry & pesto.WriteEntry.$Shape} WriteEntry
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        WriteEntry.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.WriteEntry();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.key = value;
                        else
                            delete message.key;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.value = value;
                        else
                            delete message.value;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.deleted = value;
                        else
                            delete message.deleted;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for WriteEntry
         * @function getTypeUrl
         * @memberof pesto.WriteEntry
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        WriteEntry.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.WriteEntry";
        };

        return WriteEntry;
    })();

    pesto.Dependency = (function() {

        /**
         * Properties of a Dependency.
         * @typedef {Object} pesto.Dependency.$Properties
         * @property {Uint8Array|null} [digest] Dependency digest
         * @property {number|null} [shard] Dependency shard
         * @property {pesto.Ts.$Properties|null} [ts] Dependency ts
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Dependency.
         * @memberof pesto
         * @interface IDependency
         * @augments pesto.Dependency.$Properties
         * @deprecated Use pesto.Dependency.$Properties instead.
         */

        /**
         * Shape of a Dependency.
         * @typedef {pesto.Dependency.$Properties} pesto.Dependency.$Shape
         */

        /**
         * Constructs a new Dependency.
         * @memberof pesto
         * @classdesc Represents a Dependency.
         * @constructor
         * @param {pesto.Dependency.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Dependency = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Dependency digest.
         * @member {Uint8Array} digest
         * @memberof pesto.Dependency
         * @instance
         */
        Dependency.prototype.digest = $util.newBuffer([]);

        /**
         * Dependency shard.
         * @member {number} shard
         * @memberof pesto.Dependency
         * @instance
         */
        Dependency.prototype.shard = 0;

        /**
         * Dependency ts.
         * @member {pesto.Ts.$Properties|null|undefined} ts
         * @memberof pesto.Dependency
         * @instance
         */
        Dependency.prototype.ts = null;

        /**
         * Encodes the specified Dependency message. Does not implicitly {@link pesto.Dependency.verify|verify} messages.
         * @function encode
         * @memberof pesto.Dependency
         * @static
         * @param {pesto.Dependency.$Properties} message Dependency message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Dependency.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.digest != null && $Object.hasOwnProperty.call(message, "digest") && message.digest.length)
                writer.uint32(/* id 1, wireType 2 =*/10).bytes(message.digest);
            if (message.shard != null && $Object.hasOwnProperty.call(message, "shard") && message.shard !== 0)
                writer.uint32(/* id 2, wireType 0 =*/16).uint32(message.shard);
            if (message.ts != null && $Object.hasOwnProperty.call(message, "ts"))
                $root.pesto.Ts.encode(message.ts, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Dependency message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Dependency
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Dependency & pesto.Dependency.$Shape} Dependency
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Dependency.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Dependency();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.digest = value;
                        else
                            delete message.digest;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.shard = value;
                        else
                            delete message.shard;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.ts = $root.pesto.Ts.decode(reader, reader.size(), $undefined, _depth + 1, message.ts);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Dependency
         * @function getTypeUrl
         * @memberof pesto.Dependency
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Dependency.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Dependency";
        };

        return Dependency;
    })();

    pesto.Predicate = (function() {

        /**
         * Properties of a Predicate.
         * @typedef {Object} pesto.Predicate.$Properties
         * @property {number|null} [table] Predicate table
         * @property {pesto.Ts.$Properties|null} [tableVersion] Predicate tableVersion
         * @property {Uint8Array|null} [expr] Predicate expr
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Predicate.
         * @memberof pesto
         * @interface IPredicate
         * @augments pesto.Predicate.$Properties
         * @deprecated Use pesto.Predicate.$Properties instead.
         */

        /**
         * Shape of a Predicate.
         * @typedef {pesto.Predicate.$Properties} pesto.Predicate.$Shape
         */

        /**
         * Constructs a new Predicate.
         * @memberof pesto
         * @classdesc Represents a Predicate.
         * @constructor
         * @param {pesto.Predicate.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Predicate = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Predicate table.
         * @member {number} table
         * @memberof pesto.Predicate
         * @instance
         */
        Predicate.prototype.table = 0;

        /**
         * Predicate tableVersion.
         * @member {pesto.Ts.$Properties|null|undefined} tableVersion
         * @memberof pesto.Predicate
         * @instance
         */
        Predicate.prototype.tableVersion = null;

        /**
         * Predicate expr.
         * @member {Uint8Array} expr
         * @memberof pesto.Predicate
         * @instance
         */
        Predicate.prototype.expr = $util.newBuffer([]);

        /**
         * Encodes the specified Predicate message. Does not implicitly {@link pesto.Predicate.verify|verify} messages.
         * @function encode
         * @memberof pesto.Predicate
         * @static
         * @param {pesto.Predicate.$Properties} message Predicate message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Predicate.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.table != null && $Object.hasOwnProperty.call(message, "table") && message.table !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.table);
            if (message.tableVersion != null && $Object.hasOwnProperty.call(message, "tableVersion"))
                $root.pesto.Ts.encode(message.tableVersion, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.expr != null && $Object.hasOwnProperty.call(message, "expr") && message.expr.length)
                writer.uint32(/* id 3, wireType 2 =*/26).bytes(message.expr);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Predicate message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Predicate
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Predicate & pesto.Predicate.$Shape} Predicate
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Predicate.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Predicate();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.table = value;
                        else
                            delete message.table;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.tableVersion = $root.pesto.Ts.decode(reader, reader.size(), $undefined, _depth + 1, message.tableVersion);
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.expr = value;
                        else
                            delete message.expr;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Predicate
         * @function getTypeUrl
         * @memberof pesto.Predicate
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Predicate.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Predicate";
        };

        return Predicate;
    })();

    pesto.TxnBody = (function() {

        /**
         * Properties of a TxnBody.
         * @typedef {Object} pesto.TxnBody.$Properties
         * @property {pesto.Ts.$Properties|null} [ts] TxnBody ts
         * @property {Array.<number>|null} [shards] TxnBody shards
         * @property {Array.<pesto.ReadEntry.$Properties>|null} [reads] TxnBody reads
         * @property {Array.<pesto.WriteEntry.$Properties>|null} [writes] TxnBody writes
         * @property {Array.<pesto.Dependency.$Properties>|null} [deps] TxnBody deps
         * @property {Array.<pesto.Predicate.$Properties>|null} [predicates] TxnBody predicates
         * @property {Uint8Array|null} [meta] TxnBody meta
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a TxnBody.
         * @memberof pesto
         * @interface ITxnBody
         * @augments pesto.TxnBody.$Properties
         * @deprecated Use pesto.TxnBody.$Properties instead.
         */

        /**
         * Shape of a TxnBody.
         * @typedef {pesto.TxnBody.$Properties} pesto.TxnBody.$Shape
         */

        /**
         * Constructs a new TxnBody.
         * @memberof pesto
         * @classdesc Represents a TxnBody.
         * @constructor
         * @param {pesto.TxnBody.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const TxnBody = function (properties) {
            this.shards = [];
            this.reads = [];
            this.writes = [];
            this.deps = [];
            this.predicates = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * TxnBody ts.
         * @member {pesto.Ts.$Properties|null|undefined} ts
         * @memberof pesto.TxnBody
         * @instance
         */
        TxnBody.prototype.ts = null;

        /**
         * TxnBody shards.
         * @member {Array.<number>} shards
         * @memberof pesto.TxnBody
         * @instance
         */
        TxnBody.prototype.shards = $util.emptyArray;

        /**
         * TxnBody reads.
         * @member {Array.<pesto.ReadEntry.$Properties>} reads
         * @memberof pesto.TxnBody
         * @instance
         */
        TxnBody.prototype.reads = $util.emptyArray;

        /**
         * TxnBody writes.
         * @member {Array.<pesto.WriteEntry.$Properties>} writes
         * @memberof pesto.TxnBody
         * @instance
         */
        TxnBody.prototype.writes = $util.emptyArray;

        /**
         * TxnBody deps.
         * @member {Array.<pesto.Dependency.$Properties>} deps
         * @memberof pesto.TxnBody
         * @instance
         */
        TxnBody.prototype.deps = $util.emptyArray;

        /**
         * TxnBody predicates.
         * @member {Array.<pesto.Predicate.$Properties>} predicates
         * @memberof pesto.TxnBody
         * @instance
         */
        TxnBody.prototype.predicates = $util.emptyArray;

        /**
         * TxnBody meta.
         * @member {Uint8Array} meta
         * @memberof pesto.TxnBody
         * @instance
         */
        TxnBody.prototype.meta = $util.newBuffer([]);

        /**
         * Encodes the specified TxnBody message. Does not implicitly {@link pesto.TxnBody.verify|verify} messages.
         * @function encode
         * @memberof pesto.TxnBody
         * @static
         * @param {pesto.TxnBody.$Properties} message TxnBody message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        TxnBody.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.ts != null && $Object.hasOwnProperty.call(message, "ts"))
                $root.pesto.Ts.encode(message.ts, writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.shards != null && message.shards.length)
                writer.uint32(/* id 2, wireType 2 =*/18).uint32s(message.shards);
            if (message.reads != null && message.reads.length)
                for (let i = 0; i < message.reads.length; ++i)
                    $root.pesto.ReadEntry.encode(message.reads[i], writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.writes != null && message.writes.length)
                for (let i = 0; i < message.writes.length; ++i)
                    $root.pesto.WriteEntry.encode(message.writes[i], writer.uint32(/* id 4, wireType 2 =*/34).fork(), _depth + 1).ldelim();
            if (message.deps != null && message.deps.length)
                for (let i = 0; i < message.deps.length; ++i)
                    $root.pesto.Dependency.encode(message.deps[i], writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.predicates != null && message.predicates.length)
                for (let i = 0; i < message.predicates.length; ++i)
                    $root.pesto.Predicate.encode(message.predicates[i], writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.meta != null && $Object.hasOwnProperty.call(message, "meta") && message.meta.length)
                writer.uint32(/* id 7, wireType 2 =*/58).bytes(message.meta);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a TxnBody message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.TxnBody
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.TxnBody & pesto.TxnBody.$Shape} TxnBody
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        TxnBody.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.TxnBody();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        message.ts = $root.pesto.Ts.decode(reader, reader.size(), $undefined, _depth + 1, message.ts);
                        continue;
                    }
                case 2: {
                        if (wireType === 2) {
                            if (!(message.shards && message.shards.length))
                                message.shards = [];
                            reader.uint32s(message.shards);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.shards && message.shards.length))
                            message.shards = [];
                        message.shards.push(reader.uint32());
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if (!(message.reads && message.reads.length))
                            message.reads = [];
                        message.reads.push($root.pesto.ReadEntry.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if (!(message.writes && message.writes.length))
                            message.writes = [];
                        message.writes.push($root.pesto.WriteEntry.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if (!(message.deps && message.deps.length))
                            message.deps = [];
                        message.deps.push($root.pesto.Dependency.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if (!(message.predicates && message.predicates.length))
                            message.predicates = [];
                        message.predicates.push($root.pesto.Predicate.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.meta = value;
                        else
                            delete message.meta;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for TxnBody
         * @function getTypeUrl
         * @memberof pesto.TxnBody
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        TxnBody.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.TxnBody";
        };

        return TxnBody;
    })();

    pesto.SigProof = (function() {

        /**
         * Properties of a SigProof.
         * @typedef {Object} pesto.SigProof.$Properties
         * @property {number|null} [signer] SigProof signer
         * @property {Uint8Array|null} [rootSig] SigProof rootSig
         * @property {number|null} [index] SigProof index
         * @property {Uint8Array|null} [path] SigProof path
         * @property {Uint8Array|null} [macs] SigProof macs
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a SigProof.
         * @memberof pesto
         * @interface ISigProof
         * @augments pesto.SigProof.$Properties
         * @deprecated Use pesto.SigProof.$Properties instead.
         */

        /**
         * Shape of a SigProof.
         * @typedef {pesto.SigProof.$Properties} pesto.SigProof.$Shape
         */

        /**
         * Constructs a new SigProof.
         * @memberof pesto
         * @classdesc Represents a SigProof.
         * @constructor
         * @param {pesto.SigProof.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const SigProof = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * SigProof signer.
         * @member {number} signer
         * @memberof pesto.SigProof
         * @instance
         */
        SigProof.prototype.signer = 0;

        /**
         * SigProof rootSig.
         * @member {Uint8Array} rootSig
         * @memberof pesto.SigProof
         * @instance
         */
        SigProof.prototype.rootSig = $util.newBuffer([]);

        /**
         * SigProof index.
         * @member {number} index
         * @memberof pesto.SigProof
         * @instance
         */
        SigProof.prototype.index = 0;

        /**
         * SigProof path.
         * @member {Uint8Array} path
         * @memberof pesto.SigProof
         * @instance
         */
        SigProof.prototype.path = $util.newBuffer([]);

        /**
         * SigProof macs.
         * @member {Uint8Array} macs
         * @memberof pesto.SigProof
         * @instance
         */
        SigProof.prototype.macs = $util.newBuffer([]);

        /**
         * Encodes the specified SigProof message. Does not implicitly {@link pesto.SigProof.verify|verify} messages.
         * @function encode
         * @memberof pesto.SigProof
         * @static
         * @param {pesto.SigProof.$Properties} message SigProof message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        SigProof.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.signer != null && $Object.hasOwnProperty.call(message, "signer") && message.signer !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.signer);
            if (message.rootSig != null && $Object.hasOwnProperty.call(message, "rootSig") && message.rootSig.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.rootSig);
            if (message.index != null && $Object.hasOwnProperty.call(message, "index") && message.index !== 0)
                writer.uint32(/* id 3, wireType 0 =*/24).uint32(message.index);
            if (message.path != null && $Object.hasOwnProperty.call(message, "path") && message.path.length)
                writer.uint32(/* id 4, wireType 2 =*/34).bytes(message.path);
            if (message.macs != null && $Object.hasOwnProperty.call(message, "macs") && message.macs.length)
                writer.uint32(/* id 5, wireType 2 =*/42).bytes(message.macs);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a SigProof message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.SigProof
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.SigProof & pesto.SigProof.$Shape} SigProof
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        SigProof.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.SigProof();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.signer = value;
                        else
                            delete message.signer;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.rootSig = value;
                        else
                            delete message.rootSig;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.index = value;
                        else
                            delete message.index;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.path = value;
                        else
                            delete message.path;
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.macs = value;
                        else
                            delete message.macs;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for SigProof
         * @function getTypeUrl
         * @memberof pesto.SigProof
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        SigProof.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.SigProof";
        };

        return SigProof;
    })();

    pesto.ShardSigs = (function() {

        /**
         * Properties of a ShardSigs.
         * @typedef {Object} pesto.ShardSigs.$Properties
         * @property {number|null} [shard] ShardSigs shard
         * @property {Array.<pesto.SigProof.$Properties>|null} [sigs] ShardSigs sigs
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ShardSigs.
         * @memberof pesto
         * @interface IShardSigs
         * @augments pesto.ShardSigs.$Properties
         * @deprecated Use pesto.ShardSigs.$Properties instead.
         */

        /**
         * Shape of a ShardSigs.
         * @typedef {pesto.ShardSigs.$Properties} pesto.ShardSigs.$Shape
         */

        /**
         * Constructs a new ShardSigs.
         * @memberof pesto
         * @classdesc Represents a ShardSigs.
         * @constructor
         * @param {pesto.ShardSigs.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ShardSigs = function (properties) {
            this.sigs = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ShardSigs shard.
         * @member {number} shard
         * @memberof pesto.ShardSigs
         * @instance
         */
        ShardSigs.prototype.shard = 0;

        /**
         * ShardSigs sigs.
         * @member {Array.<pesto.SigProof.$Properties>} sigs
         * @memberof pesto.ShardSigs
         * @instance
         */
        ShardSigs.prototype.sigs = $util.emptyArray;

        /**
         * Encodes the specified ShardSigs message. Does not implicitly {@link pesto.ShardSigs.verify|verify} messages.
         * @function encode
         * @memberof pesto.ShardSigs
         * @static
         * @param {pesto.ShardSigs.$Properties} message ShardSigs message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ShardSigs.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.shard != null && $Object.hasOwnProperty.call(message, "shard") && message.shard !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.shard);
            if (message.sigs != null && message.sigs.length)
                for (let i = 0; i < message.sigs.length; ++i)
                    $root.pesto.SigProof.encode(message.sigs[i], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ShardSigs message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.ShardSigs
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.ShardSigs & pesto.ShardSigs.$Shape} ShardSigs
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ShardSigs.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.ShardSigs();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.shard = value;
                        else
                            delete message.shard;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if (!(message.sigs && message.sigs.length))
                            message.sigs = [];
                        message.sigs.push($root.pesto.SigProof.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for ShardSigs
         * @function getTypeUrl
         * @memberof pesto.ShardSigs
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        ShardSigs.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.ShardSigs";
        };

        return ShardSigs;
    })();

    pesto.VoteCert = (function() {

        /**
         * Properties of a VoteCert.
         * @typedef {Object} pesto.VoteCert.$Properties
         * @property {pesto.Decision|null} [decision] VoteCert decision
         * @property {Array.<pesto.ShardSigs.$Properties>|null} [shards] VoteCert shards
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a VoteCert.
         * @memberof pesto
         * @interface IVoteCert
         * @augments pesto.VoteCert.$Properties
         * @deprecated Use pesto.VoteCert.$Properties instead.
         */

        /**
         * Shape of a VoteCert.
         * @typedef {pesto.VoteCert.$Properties} pesto.VoteCert.$Shape
         */

        /**
         * Constructs a new VoteCert.
         * @memberof pesto
         * @classdesc Represents a VoteCert.
         * @constructor
         * @param {pesto.VoteCert.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const VoteCert = function (properties) {
            this.shards = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * VoteCert decision.
         * @member {pesto.Decision} decision
         * @memberof pesto.VoteCert
         * @instance
         */
        VoteCert.prototype.decision = 0;

        /**
         * VoteCert shards.
         * @member {Array.<pesto.ShardSigs.$Properties>} shards
         * @memberof pesto.VoteCert
         * @instance
         */
        VoteCert.prototype.shards = $util.emptyArray;

        /**
         * Encodes the specified VoteCert message. Does not implicitly {@link pesto.VoteCert.verify|verify} messages.
         * @function encode
         * @memberof pesto.VoteCert
         * @static
         * @param {pesto.VoteCert.$Properties} message VoteCert message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        VoteCert.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.decision != null && $Object.hasOwnProperty.call(message, "decision") && message.decision !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).int32(message.decision);
            if (message.shards != null && message.shards.length)
                for (let i = 0; i < message.shards.length; ++i)
                    $root.pesto.ShardSigs.encode(message.shards[i], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a VoteCert message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.VoteCert
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.VoteCert & pesto.VoteCert.$Shape} VoteCert
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        VoteCert.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.VoteCert();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.decision = value;
                        else
                            delete message.decision;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if (!(message.shards && message.shards.length))
                            message.shards = [];
                        message.shards.push($root.pesto.ShardSigs.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for VoteCert
         * @function getTypeUrl
         * @memberof pesto.VoteCert
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        VoteCert.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.VoteCert";
        };

        return VoteCert;
    })();

    pesto.St2Cert = (function() {

        /**
         * Properties of a St2Cert.
         * @typedef {Object} pesto.St2Cert.$Properties
         * @property {pesto.Decision|null} [decision] St2Cert decision
         * @property {number|null} [logShard] St2Cert logShard
         * @property {number|null} [view] St2Cert view
         * @property {Array.<pesto.SigProof.$Properties>|null} [sigs] St2Cert sigs
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a St2Cert.
         * @memberof pesto
         * @interface ISt2Cert
         * @augments pesto.St2Cert.$Properties
         * @deprecated Use pesto.St2Cert.$Properties instead.
         */

        /**
         * Shape of a St2Cert.
         * @typedef {pesto.St2Cert.$Properties} pesto.St2Cert.$Shape
         */

        /**
         * Constructs a new St2Cert.
         * @memberof pesto
         * @classdesc Represents a St2Cert.
         * @constructor
         * @param {pesto.St2Cert.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const St2Cert = function (properties) {
            this.sigs = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * St2Cert decision.
         * @member {pesto.Decision} decision
         * @memberof pesto.St2Cert
         * @instance
         */
        St2Cert.prototype.decision = 0;

        /**
         * St2Cert logShard.
         * @member {number} logShard
         * @memberof pesto.St2Cert
         * @instance
         */
        St2Cert.prototype.logShard = 0;

        /**
         * St2Cert view.
         * @member {number} view
         * @memberof pesto.St2Cert
         * @instance
         */
        St2Cert.prototype.view = 0;

        /**
         * St2Cert sigs.
         * @member {Array.<pesto.SigProof.$Properties>} sigs
         * @memberof pesto.St2Cert
         * @instance
         */
        St2Cert.prototype.sigs = $util.emptyArray;

        /**
         * Encodes the specified St2Cert message. Does not implicitly {@link pesto.St2Cert.verify|verify} messages.
         * @function encode
         * @memberof pesto.St2Cert
         * @static
         * @param {pesto.St2Cert.$Properties} message St2Cert message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        St2Cert.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.decision != null && $Object.hasOwnProperty.call(message, "decision") && message.decision !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).int32(message.decision);
            if (message.logShard != null && $Object.hasOwnProperty.call(message, "logShard") && message.logShard !== 0)
                writer.uint32(/* id 2, wireType 0 =*/16).uint32(message.logShard);
            if (message.view != null && $Object.hasOwnProperty.call(message, "view") && message.view !== 0)
                writer.uint32(/* id 3, wireType 0 =*/24).uint32(message.view);
            if (message.sigs != null && message.sigs.length)
                for (let i = 0; i < message.sigs.length; ++i)
                    $root.pesto.SigProof.encode(message.sigs[i], writer.uint32(/* id 4, wireType 2 =*/34).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a St2Cert message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.St2Cert
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.St2Cert & pesto.St2Cert.$Shape} St2Cert
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        St2Cert.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.St2Cert();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.decision = value;
                        else
                            delete message.decision;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.logShard = value;
                        else
                            delete message.logShard;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.view = value;
                        else
                            delete message.view;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if (!(message.sigs && message.sigs.length))
                            message.sigs = [];
                        message.sigs.push($root.pesto.SigProof.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for St2Cert
         * @function getTypeUrl
         * @memberof pesto.St2Cert
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        St2Cert.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.St2Cert";
        };

        return St2Cert;
    })();

    pesto.CommittedTxn = (function() {

        /**
         * Properties of a CommittedTxn.
         * @typedef {Object} pesto.CommittedTxn.$Properties
         * @property {Uint8Array|null} [txn] CommittedTxn txn
         * @property {pesto.VoteCert.$Properties|null} [fast] CommittedTxn fast
         * @property {pesto.St2Cert.$Properties|null} [slow] CommittedTxn slow
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a CommittedTxn.
         * @memberof pesto
         * @interface ICommittedTxn
         * @augments pesto.CommittedTxn.$Properties
         * @deprecated Use pesto.CommittedTxn.$Properties instead.
         */

        /**
         * Shape of a CommittedTxn.
         * @typedef {pesto.CommittedTxn.$Properties} pesto.CommittedTxn.$Shape
         */

        /**
         * Constructs a new CommittedTxn.
         * @memberof pesto
         * @classdesc Represents a CommittedTxn.
         * @constructor
         * @param {pesto.CommittedTxn.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const CommittedTxn = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * CommittedTxn txn.
         * @member {Uint8Array} txn
         * @memberof pesto.CommittedTxn
         * @instance
         */
        CommittedTxn.prototype.txn = $util.newBuffer([]);

        /**
         * CommittedTxn fast.
         * @member {pesto.VoteCert.$Properties|null|undefined} fast
         * @memberof pesto.CommittedTxn
         * @instance
         */
        CommittedTxn.prototype.fast = null;

        /**
         * CommittedTxn slow.
         * @member {pesto.St2Cert.$Properties|null|undefined} slow
         * @memberof pesto.CommittedTxn
         * @instance
         */
        CommittedTxn.prototype.slow = null;

        /**
         * Encodes the specified CommittedTxn message. Does not implicitly {@link pesto.CommittedTxn.verify|verify} messages.
         * @function encode
         * @memberof pesto.CommittedTxn
         * @static
         * @param {pesto.CommittedTxn.$Properties} message CommittedTxn message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        CommittedTxn.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.txn != null && $Object.hasOwnProperty.call(message, "txn") && message.txn.length)
                writer.uint32(/* id 1, wireType 2 =*/10).bytes(message.txn);
            if (message.fast != null && $Object.hasOwnProperty.call(message, "fast"))
                $root.pesto.VoteCert.encode(message.fast, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.slow != null && $Object.hasOwnProperty.call(message, "slow"))
                $root.pesto.St2Cert.encode(message.slow, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a CommittedTxn message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.CommittedTxn
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.CommittedTxn & pesto.CommittedTxn.$Shape} CommittedTxn
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        CommittedTxn.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.CommittedTxn();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.txn = value;
                        else
                            delete message.txn;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.fast = $root.pesto.VoteCert.decode(reader, reader.size(), $undefined, _depth + 1, message.fast);
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.slow = $root.pesto.St2Cert.decode(reader, reader.size(), $undefined, _depth + 1, message.slow);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for CommittedTxn
         * @function getTypeUrl
         * @memberof pesto.CommittedTxn
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        CommittedTxn.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.CommittedTxn";
        };

        return CommittedTxn;
    })();

    pesto.Certificate = (function() {

        /**
         * Properties of a Certificate.
         * @typedef {Object} pesto.Certificate.$Properties
         * @property {pesto.VoteCert.$Properties|null} [votes] Certificate votes
         * @property {pesto.St2Cert.$Properties|null} [st2] Certificate st2
         * @property {pesto.CommittedTxn.$Properties|null} [conflict] Certificate conflict
         * @property {"votes"|"st2"|"conflict"} [kind] Certificate kind
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Certificate.
         * @memberof pesto
         * @interface ICertificate
         * @augments pesto.Certificate.$Properties
         * @deprecated Use pesto.Certificate.$Properties instead.
         */

        /**
         * Narrowed shape of a Certificate.
         * @typedef {{
         *   votes?: pesto.VoteCert.$Shape|null;
         *   st2?: pesto.St2Cert.$Shape|null;
         *   conflict?: pesto.CommittedTxn.$Shape|null;
         *   $unknowns?: Array.<Uint8Array>;
         * } & (
         *   ({ kind?: undefined; votes?: null; st2?: null; conflict?: null }|{ kind?: "votes"; votes: pesto.VoteCert.$Shape; st2?: null; conflict?: null }|{ kind?: "st2"; votes?: null; st2: pesto.St2Cert.$Shape; conflict?: null }|{ kind?: "conflict"; votes?: null; st2?: null; conflict: pesto.CommittedTxn.$Shape })
         * )} pesto.Certificate.$Shape
         */

        /**
         * Constructs a new Certificate.
         * @memberof pesto
         * @classdesc Represents a Certificate.
         * @constructor
         * @param {pesto.Certificate.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Certificate = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Certificate votes.
         * @member {pesto.VoteCert.$Properties|null|undefined} votes
         * @memberof pesto.Certificate
         * @instance
         */
        Certificate.prototype.votes = null;

        /**
         * Certificate st2.
         * @member {pesto.St2Cert.$Properties|null|undefined} st2
         * @memberof pesto.Certificate
         * @instance
         */
        Certificate.prototype.st2 = null;

        /**
         * Certificate conflict.
         * @member {pesto.CommittedTxn.$Properties|null|undefined} conflict
         * @memberof pesto.Certificate
         * @instance
         */
        Certificate.prototype.conflict = null;

        // OneOf field names bound to virtual getters and setters
        let $oneOfFields;

        /**
         * Certificate kind.
         * @member {"votes"|"st2"|"conflict"|undefined} kind
         * @memberof pesto.Certificate
         * @instance
         */
        $Object.defineProperty(Certificate.prototype, "kind", {
            get: $util.oneOfGetter($oneOfFields = ["votes", "st2", "conflict"]),
            set: $util.oneOfSetter($oneOfFields)
        });

        /**
         * Encodes the specified Certificate message. Does not implicitly {@link pesto.Certificate.verify|verify} messages.
         * @function encode
         * @memberof pesto.Certificate
         * @static
         * @param {pesto.Certificate.$Properties} message Certificate message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Certificate.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.votes != null && $Object.hasOwnProperty.call(message, "votes"))
                $root.pesto.VoteCert.encode(message.votes, writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.st2 != null && $Object.hasOwnProperty.call(message, "st2"))
                $root.pesto.St2Cert.encode(message.st2, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.conflict != null && $Object.hasOwnProperty.call(message, "conflict"))
                $root.pesto.CommittedTxn.encode(message.conflict, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Certificate message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Certificate
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Certificate & pesto.Certificate.$Shape} Certificate
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Certificate.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Certificate();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        message.votes = $root.pesto.VoteCert.decode(reader, reader.size(), $undefined, _depth + 1, message.votes);
                        message.kind = "votes";
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.st2 = $root.pesto.St2Cert.decode(reader, reader.size(), $undefined, _depth + 1, message.st2);
                        message.kind = "st2";
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.conflict = $root.pesto.CommittedTxn.decode(reader, reader.size(), $undefined, _depth + 1, message.conflict);
                        message.kind = "conflict";
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Certificate
         * @function getTypeUrl
         * @memberof pesto.Certificate
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Certificate.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Certificate";
        };

        return Certificate;
    })();

    pesto.ReadRequest = (function() {

        /**
         * Properties of a ReadRequest.
         * @typedef {Object} pesto.ReadRequest.$Properties
         * @property {number|null} [req] ReadRequest req
         * @property {Uint8Array|null} [key] ReadRequest key
         * @property {pesto.Ts.$Properties|null} [ts] ReadRequest ts
         * @property {boolean|null} [proof] ReadRequest proof
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ReadRequest.
         * @memberof pesto
         * @interface IReadRequest
         * @augments pesto.ReadRequest.$Properties
         * @deprecated Use pesto.ReadRequest.$Properties instead.
         */

        /**
         * Shape of a ReadRequest.
         * @typedef {pesto.ReadRequest.$Properties} pesto.ReadRequest.$Shape
         */

        /**
         * Constructs a new ReadRequest.
         * @memberof pesto
         * @classdesc Represents a ReadRequest.
         * @constructor
         * @param {pesto.ReadRequest.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ReadRequest = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ReadRequest req.
         * @member {number} req
         * @memberof pesto.ReadRequest
         * @instance
         */
        ReadRequest.prototype.req = 0;

        /**
         * ReadRequest key.
         * @member {Uint8Array} key
         * @memberof pesto.ReadRequest
         * @instance
         */
        ReadRequest.prototype.key = $util.newBuffer([]);

        /**
         * ReadRequest ts.
         * @member {pesto.Ts.$Properties|null|undefined} ts
         * @memberof pesto.ReadRequest
         * @instance
         */
        ReadRequest.prototype.ts = null;

        /**
         * ReadRequest proof.
         * @member {boolean} proof
         * @memberof pesto.ReadRequest
         * @instance
         */
        ReadRequest.prototype.proof = false;

        /**
         * Encodes the specified ReadRequest message. Does not implicitly {@link pesto.ReadRequest.verify|verify} messages.
         * @function encode
         * @memberof pesto.ReadRequest
         * @static
         * @param {pesto.ReadRequest.$Properties} message ReadRequest message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ReadRequest.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.key);
            if (message.ts != null && $Object.hasOwnProperty.call(message, "ts"))
                $root.pesto.Ts.encode(message.ts, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.proof != null && $Object.hasOwnProperty.call(message, "proof") && message.proof !== false)
                writer.uint32(/* id 4, wireType 0 =*/32).bool(message.proof);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ReadRequest message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.ReadRequest
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.ReadRequest & pesto.ReadRequest.$Shape} ReadRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ReadRequest.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.ReadRequest();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.key = value;
                        else
                            delete message.key;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.ts = $root.pesto.Ts.decode(reader, reader.size(), $undefined, _depth + 1, message.ts);
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.proof = value;
                        else
                            delete message.proof;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for ReadRequest
         * @function getTypeUrl
         * @memberof pesto.ReadRequest
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        ReadRequest.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.ReadRequest";
        };

        return ReadRequest;
    })();

    pesto.ReadReply = (function() {

        /**
         * Properties of a ReadReply.
         * @typedef {Object} pesto.ReadReply.$Properties
         * @property {number|null} [req] ReadReply req
         * @property {Uint8Array|null} [key] ReadReply key
         * @property {pesto.Ts.$Properties|null} [committedVersion] ReadReply committedVersion
         * @property {Uint8Array|null} [committedValue] ReadReply committedValue
         * @property {boolean|null} [committedDeleted] ReadReply committedDeleted
         * @property {pesto.CommittedTxn.$Properties|null} [committedProof] ReadReply committedProof
         * @property {Uint8Array|null} [committedDigest] ReadReply committedDigest
         * @property {pesto.Ts.$Properties|null} [preparedVersion] ReadReply preparedVersion
         * @property {Uint8Array|null} [preparedValue] ReadReply preparedValue
         * @property {boolean|null} [preparedDeleted] ReadReply preparedDeleted
         * @property {Uint8Array|null} [preparedDigest] ReadReply preparedDigest
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a ReadReply.
         * @memberof pesto
         * @interface IReadReply
         * @augments pesto.ReadReply.$Properties
         * @deprecated Use pesto.ReadReply.$Properties instead.
         */

        /**
         * Shape of a ReadReply.
         * @typedef {pesto.ReadReply.$Properties} pesto.ReadReply.$Shape
         */

        /**
         * Constructs a new ReadReply.
         * @memberof pesto
         * @classdesc Represents a ReadReply.
         * @constructor
         * @param {pesto.ReadReply.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const ReadReply = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * ReadReply req.
         * @member {number} req
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.req = 0;

        /**
         * ReadReply key.
         * @member {Uint8Array} key
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.key = $util.newBuffer([]);

        /**
         * ReadReply committedVersion.
         * @member {pesto.Ts.$Properties|null|undefined} committedVersion
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.committedVersion = null;

        /**
         * ReadReply committedValue.
         * @member {Uint8Array} committedValue
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.committedValue = $util.newBuffer([]);

        /**
         * ReadReply committedDeleted.
         * @member {boolean} committedDeleted
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.committedDeleted = false;

        /**
         * ReadReply committedProof.
         * @member {pesto.CommittedTxn.$Properties|null|undefined} committedProof
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.committedProof = null;

        /**
         * ReadReply committedDigest.
         * @member {Uint8Array} committedDigest
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.committedDigest = $util.newBuffer([]);

        /**
         * ReadReply preparedVersion.
         * @member {pesto.Ts.$Properties|null|undefined} preparedVersion
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.preparedVersion = null;

        /**
         * ReadReply preparedValue.
         * @member {Uint8Array} preparedValue
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.preparedValue = $util.newBuffer([]);

        /**
         * ReadReply preparedDeleted.
         * @member {boolean} preparedDeleted
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.preparedDeleted = false;

        /**
         * ReadReply preparedDigest.
         * @member {Uint8Array} preparedDigest
         * @memberof pesto.ReadReply
         * @instance
         */
        ReadReply.prototype.preparedDigest = $util.newBuffer([]);

        /**
         * Encodes the specified ReadReply message. Does not implicitly {@link pesto.ReadReply.verify|verify} messages.
         * @function encode
         * @memberof pesto.ReadReply
         * @static
         * @param {pesto.ReadReply.$Properties} message ReadReply message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        ReadReply.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.key != null && $Object.hasOwnProperty.call(message, "key") && message.key.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.key);
            if (message.committedVersion != null && $Object.hasOwnProperty.call(message, "committedVersion"))
                $root.pesto.Ts.encode(message.committedVersion, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.committedValue != null && $Object.hasOwnProperty.call(message, "committedValue") && message.committedValue.length)
                writer.uint32(/* id 4, wireType 2 =*/34).bytes(message.committedValue);
            if (message.committedDeleted != null && $Object.hasOwnProperty.call(message, "committedDeleted") && message.committedDeleted !== false)
                writer.uint32(/* id 5, wireType 0 =*/40).bool(message.committedDeleted);
            if (message.committedProof != null && $Object.hasOwnProperty.call(message, "committedProof"))
                $root.pesto.CommittedTxn.encode(message.committedProof, writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.preparedVersion != null && $Object.hasOwnProperty.call(message, "preparedVersion"))
                $root.pesto.Ts.encode(message.preparedVersion, writer.uint32(/* id 7, wireType 2 =*/58).fork(), _depth + 1).ldelim();
            if (message.preparedValue != null && $Object.hasOwnProperty.call(message, "preparedValue") && message.preparedValue.length)
                writer.uint32(/* id 8, wireType 2 =*/66).bytes(message.preparedValue);
            if (message.preparedDeleted != null && $Object.hasOwnProperty.call(message, "preparedDeleted") && message.preparedDeleted !== false)
                writer.uint32(/* id 9, wireType 0 =*/72).bool(message.preparedDeleted);
            if (message.preparedDigest != null && $Object.hasOwnProperty.call(message, "preparedDigest") && message.preparedDigest.length)
                writer.uint32(/* id 10, wireType 2 =*/82).bytes(message.preparedDigest);
            if (message.committedDigest != null && $Object.hasOwnProperty.call(message, "committedDigest") && message.committedDigest.length)
                writer.uint32(/* id 11, wireType 2 =*/90).bytes(message.committedDigest);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a ReadReply message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.ReadReply
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.ReadReply & pesto.ReadReply.$Shape} ReadReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        ReadReply.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.ReadReply();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.key = value;
                        else
                            delete message.key;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.committedVersion = $root.pesto.Ts.decode(reader, reader.size(), $undefined, _depth + 1, message.committedVersion);
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.committedValue = value;
                        else
                            delete message.committedValue;
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.committedDeleted = value;
                        else
                            delete message.committedDeleted;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        message.committedProof = $root.pesto.CommittedTxn.decode(reader, reader.size(), $undefined, _depth + 1, message.committedProof);
                        continue;
                    }
                case 11: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.committedDigest = value;
                        else
                            delete message.committedDigest;
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        message.preparedVersion = $root.pesto.Ts.decode(reader, reader.size(), $undefined, _depth + 1, message.preparedVersion);
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.preparedValue = value;
                        else
                            delete message.preparedValue;
                        continue;
                    }
                case 9: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.preparedDeleted = value;
                        else
                            delete message.preparedDeleted;
                        continue;
                    }
                case 10: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.preparedDigest = value;
                        else
                            delete message.preparedDigest;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for ReadReply
         * @function getTypeUrl
         * @memberof pesto.ReadReply
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        ReadReply.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.ReadReply";
        };

        return ReadReply;
    })();

    pesto.Prepare = (function() {

        /**
         * Properties of a Prepare.
         * @typedef {Object} pesto.Prepare.$Properties
         * @property {number|null} [req] Prepare req
         * @property {Uint8Array|null} [txn] Prepare txn
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Prepare.
         * @memberof pesto
         * @interface IPrepare
         * @augments pesto.Prepare.$Properties
         * @deprecated Use pesto.Prepare.$Properties instead.
         */

        /**
         * Shape of a Prepare.
         * @typedef {pesto.Prepare.$Properties} pesto.Prepare.$Shape
         */

        /**
         * Constructs a new Prepare.
         * @memberof pesto
         * @classdesc Represents a Prepare.
         * @constructor
         * @param {pesto.Prepare.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Prepare = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Prepare req.
         * @member {number} req
         * @memberof pesto.Prepare
         * @instance
         */
        Prepare.prototype.req = 0;

        /**
         * Prepare txn.
         * @member {Uint8Array} txn
         * @memberof pesto.Prepare
         * @instance
         */
        Prepare.prototype.txn = $util.newBuffer([]);

        /**
         * Encodes the specified Prepare message. Does not implicitly {@link pesto.Prepare.verify|verify} messages.
         * @function encode
         * @memberof pesto.Prepare
         * @static
         * @param {pesto.Prepare.$Properties} message Prepare message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Prepare.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.txn != null && $Object.hasOwnProperty.call(message, "txn") && message.txn.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.txn);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Prepare message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Prepare
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Prepare & pesto.Prepare.$Shape} Prepare
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Prepare.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Prepare();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.txn = value;
                        else
                            delete message.txn;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Prepare
         * @function getTypeUrl
         * @memberof pesto.Prepare
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Prepare.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Prepare";
        };

        return Prepare;
    })();

    pesto.PrepareReply = (function() {

        /**
         * Properties of a PrepareReply.
         * @typedef {Object} pesto.PrepareReply.$Properties
         * @property {number|null} [req] PrepareReply req
         * @property {Uint8Array|null} [digest] PrepareReply digest
         * @property {number|null} [shard] PrepareReply shard
         * @property {pesto.Decision|null} [decision] PrepareReply decision
         * @property {pesto.SigProof.$Properties|null} [sig] PrepareReply sig
         * @property {pesto.CommittedTxn.$Properties|null} [conflict] PrepareReply conflict
         * @property {pesto.Writeback.$Properties|null} [decided] PrepareReply decided
         * @property {Uint8Array|null} [conflictPrepared] PrepareReply conflictPrepared
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a PrepareReply.
         * @memberof pesto
         * @interface IPrepareReply
         * @augments pesto.PrepareReply.$Properties
         * @deprecated Use pesto.PrepareReply.$Properties instead.
         */

        /**
         * Shape of a PrepareReply.
         * @typedef {{
         *   req?: number|null;
         *   digest?: Uint8Array|null;
         *   shard?: number|null;
         *   decision?: pesto.Decision|null;
         *   sig?: pesto.SigProof.$Shape|null;
         *   conflict?: pesto.CommittedTxn.$Shape|null;
         *   decided?: pesto.Writeback.$Shape|null;
         *   conflictPrepared?: Uint8Array|null;
         *   $unknowns?: Array.<Uint8Array>;
         * }} pesto.PrepareReply.$Shape
         */

        /**
         * Constructs a new PrepareReply.
         * @memberof pesto
         * @classdesc Represents a PrepareReply.
         * @constructor
         * @param {pesto.PrepareReply.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const PrepareReply = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * PrepareReply req.
         * @member {number} req
         * @memberof pesto.PrepareReply
         * @instance
         */
        PrepareReply.prototype.req = 0;

        /**
         * PrepareReply digest.
         * @member {Uint8Array} digest
         * @memberof pesto.PrepareReply
         * @instance
         */
        PrepareReply.prototype.digest = $util.newBuffer([]);

        /**
         * PrepareReply shard.
         * @member {number} shard
         * @memberof pesto.PrepareReply
         * @instance
         */
        PrepareReply.prototype.shard = 0;

        /**
         * PrepareReply decision.
         * @member {pesto.Decision} decision
         * @memberof pesto.PrepareReply
         * @instance
         */
        PrepareReply.prototype.decision = 0;

        /**
         * PrepareReply sig.
         * @member {pesto.SigProof.$Properties|null|undefined} sig
         * @memberof pesto.PrepareReply
         * @instance
         */
        PrepareReply.prototype.sig = null;

        /**
         * PrepareReply conflict.
         * @member {pesto.CommittedTxn.$Properties|null|undefined} conflict
         * @memberof pesto.PrepareReply
         * @instance
         */
        PrepareReply.prototype.conflict = null;

        /**
         * PrepareReply decided.
         * @member {pesto.Writeback.$Properties|null|undefined} decided
         * @memberof pesto.PrepareReply
         * @instance
         */
        PrepareReply.prototype.decided = null;

        /**
         * PrepareReply conflictPrepared.
         * @member {Uint8Array} conflictPrepared
         * @memberof pesto.PrepareReply
         * @instance
         */
        PrepareReply.prototype.conflictPrepared = $util.newBuffer([]);

        /**
         * Encodes the specified PrepareReply message. Does not implicitly {@link pesto.PrepareReply.verify|verify} messages.
         * @function encode
         * @memberof pesto.PrepareReply
         * @static
         * @param {pesto.PrepareReply.$Properties} message PrepareReply message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        PrepareReply.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.digest != null && $Object.hasOwnProperty.call(message, "digest") && message.digest.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.digest);
            if (message.shard != null && $Object.hasOwnProperty.call(message, "shard") && message.shard !== 0)
                writer.uint32(/* id 3, wireType 0 =*/24).uint32(message.shard);
            if (message.decision != null && $Object.hasOwnProperty.call(message, "decision") && message.decision !== 0)
                writer.uint32(/* id 4, wireType 0 =*/32).int32(message.decision);
            if (message.sig != null && $Object.hasOwnProperty.call(message, "sig"))
                $root.pesto.SigProof.encode(message.sig, writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.conflict != null && $Object.hasOwnProperty.call(message, "conflict"))
                $root.pesto.CommittedTxn.encode(message.conflict, writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.decided != null && $Object.hasOwnProperty.call(message, "decided"))
                $root.pesto.Writeback.encode(message.decided, writer.uint32(/* id 7, wireType 2 =*/58).fork(), _depth + 1).ldelim();
            if (message.conflictPrepared != null && $Object.hasOwnProperty.call(message, "conflictPrepared") && message.conflictPrepared.length)
                writer.uint32(/* id 8, wireType 2 =*/66).bytes(message.conflictPrepared);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a PrepareReply message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.PrepareReply
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.PrepareReply & pesto.PrepareReply.$Shape} PrepareReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        PrepareReply.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.PrepareReply();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.digest = value;
                        else
                            delete message.digest;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.shard = value;
                        else
                            delete message.shard;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.decision = value;
                        else
                            delete message.decision;
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        message.sig = $root.pesto.SigProof.decode(reader, reader.size(), $undefined, _depth + 1, message.sig);
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        message.conflict = $root.pesto.CommittedTxn.decode(reader, reader.size(), $undefined, _depth + 1, message.conflict);
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        message.decided = $root.pesto.Writeback.decode(reader, reader.size(), $undefined, _depth + 1, message.decided);
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.conflictPrepared = value;
                        else
                            delete message.conflictPrepared;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for PrepareReply
         * @function getTypeUrl
         * @memberof pesto.PrepareReply
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        PrepareReply.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.PrepareReply";
        };

        return PrepareReply;
    })();

    pesto.Decide = (function() {

        /**
         * Properties of a Decide.
         * @typedef {Object} pesto.Decide.$Properties
         * @property {number|null} [req] Decide req
         * @property {Uint8Array|null} [digest] Decide digest
         * @property {pesto.Decision|null} [decision] Decide decision
         * @property {number|null} [view] Decide view
         * @property {number|null} [logShard] Decide logShard
         * @property {pesto.VoteCert.$Properties|null} [justification] Decide justification
         * @property {Uint8Array|null} [txn] Decide txn
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Decide.
         * @memberof pesto
         * @interface IDecide
         * @augments pesto.Decide.$Properties
         * @deprecated Use pesto.Decide.$Properties instead.
         */

        /**
         * Shape of a Decide.
         * @typedef {pesto.Decide.$Properties} pesto.Decide.$Shape
         */

        /**
         * Constructs a new Decide.
         * @memberof pesto
         * @classdesc Represents a Decide.
         * @constructor
         * @param {pesto.Decide.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Decide = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Decide req.
         * @member {number} req
         * @memberof pesto.Decide
         * @instance
         */
        Decide.prototype.req = 0;

        /**
         * Decide digest.
         * @member {Uint8Array} digest
         * @memberof pesto.Decide
         * @instance
         */
        Decide.prototype.digest = $util.newBuffer([]);

        /**
         * Decide decision.
         * @member {pesto.Decision} decision
         * @memberof pesto.Decide
         * @instance
         */
        Decide.prototype.decision = 0;

        /**
         * Decide view.
         * @member {number} view
         * @memberof pesto.Decide
         * @instance
         */
        Decide.prototype.view = 0;

        /**
         * Decide logShard.
         * @member {number} logShard
         * @memberof pesto.Decide
         * @instance
         */
        Decide.prototype.logShard = 0;

        /**
         * Decide justification.
         * @member {pesto.VoteCert.$Properties|null|undefined} justification
         * @memberof pesto.Decide
         * @instance
         */
        Decide.prototype.justification = null;

        /**
         * Decide txn.
         * @member {Uint8Array} txn
         * @memberof pesto.Decide
         * @instance
         */
        Decide.prototype.txn = $util.newBuffer([]);

        /**
         * Encodes the specified Decide message. Does not implicitly {@link pesto.Decide.verify|verify} messages.
         * @function encode
         * @memberof pesto.Decide
         * @static
         * @param {pesto.Decide.$Properties} message Decide message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Decide.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.digest != null && $Object.hasOwnProperty.call(message, "digest") && message.digest.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.digest);
            if (message.decision != null && $Object.hasOwnProperty.call(message, "decision") && message.decision !== 0)
                writer.uint32(/* id 3, wireType 0 =*/24).int32(message.decision);
            if (message.view != null && $Object.hasOwnProperty.call(message, "view") && message.view !== 0)
                writer.uint32(/* id 4, wireType 0 =*/32).uint32(message.view);
            if (message.logShard != null && $Object.hasOwnProperty.call(message, "logShard") && message.logShard !== 0)
                writer.uint32(/* id 5, wireType 0 =*/40).uint32(message.logShard);
            if (message.justification != null && $Object.hasOwnProperty.call(message, "justification"))
                $root.pesto.VoteCert.encode(message.justification, writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.txn != null && $Object.hasOwnProperty.call(message, "txn") && message.txn.length)
                writer.uint32(/* id 7, wireType 2 =*/58).bytes(message.txn);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Decide message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Decide
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Decide & pesto.Decide.$Shape} Decide
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Decide.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Decide();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.digest = value;
                        else
                            delete message.digest;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.decision = value;
                        else
                            delete message.decision;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.view = value;
                        else
                            delete message.view;
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.logShard = value;
                        else
                            delete message.logShard;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        message.justification = $root.pesto.VoteCert.decode(reader, reader.size(), $undefined, _depth + 1, message.justification);
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.txn = value;
                        else
                            delete message.txn;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Decide
         * @function getTypeUrl
         * @memberof pesto.Decide
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Decide.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Decide";
        };

        return Decide;
    })();

    pesto.DecideReply = (function() {

        /**
         * Properties of a DecideReply.
         * @typedef {Object} pesto.DecideReply.$Properties
         * @property {number|null} [req] DecideReply req
         * @property {Uint8Array|null} [digest] DecideReply digest
         * @property {pesto.Decision|null} [decision] DecideReply decision
         * @property {number|null} [view] DecideReply view
         * @property {number|null} [logShard] DecideReply logShard
         * @property {pesto.SigProof.$Properties|null} [sig] DecideReply sig
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a DecideReply.
         * @memberof pesto
         * @interface IDecideReply
         * @augments pesto.DecideReply.$Properties
         * @deprecated Use pesto.DecideReply.$Properties instead.
         */

        /**
         * Shape of a DecideReply.
         * @typedef {pesto.DecideReply.$Properties} pesto.DecideReply.$Shape
         */

        /**
         * Constructs a new DecideReply.
         * @memberof pesto
         * @classdesc Represents a DecideReply.
         * @constructor
         * @param {pesto.DecideReply.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const DecideReply = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * DecideReply req.
         * @member {number} req
         * @memberof pesto.DecideReply
         * @instance
         */
        DecideReply.prototype.req = 0;

        /**
         * DecideReply digest.
         * @member {Uint8Array} digest
         * @memberof pesto.DecideReply
         * @instance
         */
        DecideReply.prototype.digest = $util.newBuffer([]);

        /**
         * DecideReply decision.
         * @member {pesto.Decision} decision
         * @memberof pesto.DecideReply
         * @instance
         */
        DecideReply.prototype.decision = 0;

        /**
         * DecideReply view.
         * @member {number} view
         * @memberof pesto.DecideReply
         * @instance
         */
        DecideReply.prototype.view = 0;

        /**
         * DecideReply logShard.
         * @member {number} logShard
         * @memberof pesto.DecideReply
         * @instance
         */
        DecideReply.prototype.logShard = 0;

        /**
         * DecideReply sig.
         * @member {pesto.SigProof.$Properties|null|undefined} sig
         * @memberof pesto.DecideReply
         * @instance
         */
        DecideReply.prototype.sig = null;

        /**
         * Encodes the specified DecideReply message. Does not implicitly {@link pesto.DecideReply.verify|verify} messages.
         * @function encode
         * @memberof pesto.DecideReply
         * @static
         * @param {pesto.DecideReply.$Properties} message DecideReply message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        DecideReply.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.digest != null && $Object.hasOwnProperty.call(message, "digest") && message.digest.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.digest);
            if (message.decision != null && $Object.hasOwnProperty.call(message, "decision") && message.decision !== 0)
                writer.uint32(/* id 3, wireType 0 =*/24).int32(message.decision);
            if (message.view != null && $Object.hasOwnProperty.call(message, "view") && message.view !== 0)
                writer.uint32(/* id 4, wireType 0 =*/32).uint32(message.view);
            if (message.logShard != null && $Object.hasOwnProperty.call(message, "logShard") && message.logShard !== 0)
                writer.uint32(/* id 5, wireType 0 =*/40).uint32(message.logShard);
            if (message.sig != null && $Object.hasOwnProperty.call(message, "sig"))
                $root.pesto.SigProof.encode(message.sig, writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a DecideReply message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.DecideReply
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.DecideReply & pesto.DecideReply.$Shape} DecideReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        DecideReply.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.DecideReply();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.digest = value;
                        else
                            delete message.digest;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.decision = value;
                        else
                            delete message.decision;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.view = value;
                        else
                            delete message.view;
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.logShard = value;
                        else
                            delete message.logShard;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        message.sig = $root.pesto.SigProof.decode(reader, reader.size(), $undefined, _depth + 1, message.sig);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for DecideReply
         * @function getTypeUrl
         * @memberof pesto.DecideReply
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        DecideReply.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.DecideReply";
        };

        return DecideReply;
    })();

    pesto.Writeback = (function() {

        /**
         * Properties of a Writeback.
         * @typedef {Object} pesto.Writeback.$Properties
         * @property {Uint8Array|null} [digest] Writeback digest
         * @property {pesto.Certificate.$Properties|null} [cert] Writeback cert
         * @property {Uint8Array|null} [txn] Writeback txn
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Writeback.
         * @memberof pesto
         * @interface IWriteback
         * @augments pesto.Writeback.$Properties
         * @deprecated Use pesto.Writeback.$Properties instead.
         */

        /**
         * Shape of a Writeback.
         * @typedef {{
         *   digest?: Uint8Array|null;
         *   cert?: pesto.Certificate.$Shape|null;
         *   txn?: Uint8Array|null;
         *   $unknowns?: Array.<Uint8Array>;
         * }} pesto.Writeback.$Shape
         */

        /**
         * Constructs a new Writeback.
         * @memberof pesto
         * @classdesc Represents a Writeback.
         * @constructor
         * @param {pesto.Writeback.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Writeback = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Writeback digest.
         * @member {Uint8Array} digest
         * @memberof pesto.Writeback
         * @instance
         */
        Writeback.prototype.digest = $util.newBuffer([]);

        /**
         * Writeback cert.
         * @member {pesto.Certificate.$Properties|null|undefined} cert
         * @memberof pesto.Writeback
         * @instance
         */
        Writeback.prototype.cert = null;

        /**
         * Writeback txn.
         * @member {Uint8Array} txn
         * @memberof pesto.Writeback
         * @instance
         */
        Writeback.prototype.txn = $util.newBuffer([]);

        /**
         * Encodes the specified Writeback message. Does not implicitly {@link pesto.Writeback.verify|verify} messages.
         * @function encode
         * @memberof pesto.Writeback
         * @static
         * @param {pesto.Writeback.$Properties} message Writeback message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Writeback.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.digest != null && $Object.hasOwnProperty.call(message, "digest") && message.digest.length)
                writer.uint32(/* id 1, wireType 2 =*/10).bytes(message.digest);
            if (message.cert != null && $Object.hasOwnProperty.call(message, "cert"))
                $root.pesto.Certificate.encode(message.cert, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.txn != null && $Object.hasOwnProperty.call(message, "txn") && message.txn.length)
                writer.uint32(/* id 3, wireType 2 =*/26).bytes(message.txn);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Writeback message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Writeback
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Writeback & pesto.Writeback.$Shape} Writeback
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Writeback.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Writeback();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.digest = value;
                        else
                            delete message.digest;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.cert = $root.pesto.Certificate.decode(reader, reader.size(), $undefined, _depth + 1, message.cert);
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.txn = value;
                        else
                            delete message.txn;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Writeback
         * @function getTypeUrl
         * @memberof pesto.Writeback
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Writeback.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Writeback";
        };

        return Writeback;
    })();

    pesto.Relay = (function() {

        /**
         * Properties of a Relay.
         * @typedef {Object} pesto.Relay.$Properties
         * @property {number|null} [req] Relay req
         * @property {Uint8Array|null} [waitingDigest] Relay waitingDigest
         * @property {Uint8Array|null} [txn] Relay txn
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Relay.
         * @memberof pesto
         * @interface IRelay
         * @augments pesto.Relay.$Properties
         * @deprecated Use pesto.Relay.$Properties instead.
         */

        /**
         * Shape of a Relay.
         * @typedef {pesto.Relay.$Properties} pesto.Relay.$Shape
         */

        /**
         * Constructs a new Relay.
         * @memberof pesto
         * @classdesc Represents a Relay.
         * @constructor
         * @param {pesto.Relay.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Relay = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Relay req.
         * @member {number} req
         * @memberof pesto.Relay
         * @instance
         */
        Relay.prototype.req = 0;

        /**
         * Relay waitingDigest.
         * @member {Uint8Array} waitingDigest
         * @memberof pesto.Relay
         * @instance
         */
        Relay.prototype.waitingDigest = $util.newBuffer([]);

        /**
         * Relay txn.
         * @member {Uint8Array} txn
         * @memberof pesto.Relay
         * @instance
         */
        Relay.prototype.txn = $util.newBuffer([]);

        /**
         * Encodes the specified Relay message. Does not implicitly {@link pesto.Relay.verify|verify} messages.
         * @function encode
         * @memberof pesto.Relay
         * @static
         * @param {pesto.Relay.$Properties} message Relay message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Relay.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.waitingDigest != null && $Object.hasOwnProperty.call(message, "waitingDigest") && message.waitingDigest.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.waitingDigest);
            if (message.txn != null && $Object.hasOwnProperty.call(message, "txn") && message.txn.length)
                writer.uint32(/* id 3, wireType 2 =*/26).bytes(message.txn);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Relay message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Relay
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Relay & pesto.Relay.$Shape} Relay
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Relay.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Relay();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.waitingDigest = value;
                        else
                            delete message.waitingDigest;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.txn = value;
                        else
                            delete message.txn;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Relay
         * @function getTypeUrl
         * @memberof pesto.Relay
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Relay.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Relay";
        };

        return Relay;
    })();

    pesto.Elect = (function() {

        /**
         * Properties of an Elect.
         * @typedef {Object} pesto.Elect.$Properties
         * @property {number|null} [req] Elect req
         * @property {number|null} [view] Elect view
         * @property {pesto.Decide.$Properties|null} [decide] Elect decide
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an Elect.
         * @memberof pesto
         * @interface IElect
         * @augments pesto.Elect.$Properties
         * @deprecated Use pesto.Elect.$Properties instead.
         */

        /**
         * Shape of an Elect.
         * @typedef {pesto.Elect.$Properties} pesto.Elect.$Shape
         */

        /**
         * Constructs a new Elect.
         * @memberof pesto
         * @classdesc Represents an Elect.
         * @constructor
         * @param {pesto.Elect.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Elect = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Elect req.
         * @member {number} req
         * @memberof pesto.Elect
         * @instance
         */
        Elect.prototype.req = 0;

        /**
         * Elect view.
         * @member {number} view
         * @memberof pesto.Elect
         * @instance
         */
        Elect.prototype.view = 0;

        /**
         * Elect decide.
         * @member {pesto.Decide.$Properties|null|undefined} decide
         * @memberof pesto.Elect
         * @instance
         */
        Elect.prototype.decide = null;

        /**
         * Encodes the specified Elect message. Does not implicitly {@link pesto.Elect.verify|verify} messages.
         * @function encode
         * @memberof pesto.Elect
         * @static
         * @param {pesto.Elect.$Properties} message Elect message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Elect.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.view != null && $Object.hasOwnProperty.call(message, "view") && message.view !== 0)
                writer.uint32(/* id 2, wireType 0 =*/16).uint32(message.view);
            if (message.decide != null && $Object.hasOwnProperty.call(message, "decide"))
                $root.pesto.Decide.encode(message.decide, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an Elect message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Elect
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Elect & pesto.Elect.$Shape} Elect
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Elect.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Elect();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.view = value;
                        else
                            delete message.view;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.decide = $root.pesto.Decide.decode(reader, reader.size(), $undefined, _depth + 1, message.decide);
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Elect
         * @function getTypeUrl
         * @memberof pesto.Elect
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Elect.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Elect";
        };

        return Elect;
    })();

    pesto.DecisionFb = (function() {

        /**
         * Properties of a DecisionFb.
         * @typedef {Object} pesto.DecisionFb.$Properties
         * @property {number|null} [req] DecisionFb req
         * @property {Uint8Array|null} [digest] DecisionFb digest
         * @property {pesto.Decision|null} [decision] DecisionFb decision
         * @property {number|null} [view] DecisionFb view
         * @property {number|null} [logShard] DecisionFb logShard
         * @property {Array.<pesto.SigProof.$Properties>|null} [elects] DecisionFb elects
         * @property {Uint8Array|null} [txn] DecisionFb txn
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a DecisionFb.
         * @memberof pesto
         * @interface IDecisionFb
         * @augments pesto.DecisionFb.$Properties
         * @deprecated Use pesto.DecisionFb.$Properties instead.
         */

        /**
         * Shape of a DecisionFb.
         * @typedef {pesto.DecisionFb.$Properties} pesto.DecisionFb.$Shape
         */

        /**
         * Constructs a new DecisionFb.
         * @memberof pesto
         * @classdesc Represents a DecisionFb.
         * @constructor
         * @param {pesto.DecisionFb.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const DecisionFb = function (properties) {
            this.elects = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * DecisionFb req.
         * @member {number} req
         * @memberof pesto.DecisionFb
         * @instance
         */
        DecisionFb.prototype.req = 0;

        /**
         * DecisionFb digest.
         * @member {Uint8Array} digest
         * @memberof pesto.DecisionFb
         * @instance
         */
        DecisionFb.prototype.digest = $util.newBuffer([]);

        /**
         * DecisionFb decision.
         * @member {pesto.Decision} decision
         * @memberof pesto.DecisionFb
         * @instance
         */
        DecisionFb.prototype.decision = 0;

        /**
         * DecisionFb view.
         * @member {number} view
         * @memberof pesto.DecisionFb
         * @instance
         */
        DecisionFb.prototype.view = 0;

        /**
         * DecisionFb logShard.
         * @member {number} logShard
         * @memberof pesto.DecisionFb
         * @instance
         */
        DecisionFb.prototype.logShard = 0;

        /**
         * DecisionFb elects.
         * @member {Array.<pesto.SigProof.$Properties>} elects
         * @memberof pesto.DecisionFb
         * @instance
         */
        DecisionFb.prototype.elects = $util.emptyArray;

        /**
         * DecisionFb txn.
         * @member {Uint8Array} txn
         * @memberof pesto.DecisionFb
         * @instance
         */
        DecisionFb.prototype.txn = $util.newBuffer([]);

        /**
         * Encodes the specified DecisionFb message. Does not implicitly {@link pesto.DecisionFb.verify|verify} messages.
         * @function encode
         * @memberof pesto.DecisionFb
         * @static
         * @param {pesto.DecisionFb.$Properties} message DecisionFb message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        DecisionFb.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.digest != null && $Object.hasOwnProperty.call(message, "digest") && message.digest.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.digest);
            if (message.decision != null && $Object.hasOwnProperty.call(message, "decision") && message.decision !== 0)
                writer.uint32(/* id 3, wireType 0 =*/24).int32(message.decision);
            if (message.view != null && $Object.hasOwnProperty.call(message, "view") && message.view !== 0)
                writer.uint32(/* id 4, wireType 0 =*/32).uint32(message.view);
            if (message.logShard != null && $Object.hasOwnProperty.call(message, "logShard") && message.logShard !== 0)
                writer.uint32(/* id 5, wireType 0 =*/40).uint32(message.logShard);
            if (message.elects != null && message.elects.length)
                for (let i = 0; i < message.elects.length; ++i)
                    $root.pesto.SigProof.encode(message.elects[i], writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.txn != null && $Object.hasOwnProperty.call(message, "txn") && message.txn.length)
                writer.uint32(/* id 7, wireType 2 =*/58).bytes(message.txn);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a DecisionFb message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.DecisionFb
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.DecisionFb & pesto.DecisionFb.$Shape} DecisionFb
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        DecisionFb.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.DecisionFb();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.digest = value;
                        else
                            delete message.digest;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.decision = value;
                        else
                            delete message.decision;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.view = value;
                        else
                            delete message.view;
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.logShard = value;
                        else
                            delete message.logShard;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if (!(message.elects && message.elects.length))
                            message.elects = [];
                        message.elects.push($root.pesto.SigProof.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.txn = value;
                        else
                            delete message.txn;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for DecisionFb
         * @function getTypeUrl
         * @memberof pesto.DecisionFb
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        DecisionFb.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.DecisionFb";
        };

        return DecisionFb;
    })();

    pesto.Query = (function() {

        /**
         * Properties of a Query.
         * @typedef {Object} pesto.Query.$Properties
         * @property {number|null} [req] Query req
         * @property {pesto.Ts.$Properties|null} [ts] Query ts
         * @property {string|null} [sql] Query sql
         * @property {Uint8Array|null} [params] Query params
         * @property {Array.<pesto.WriteEntry.$Properties>|null} [ownWrites] Query ownWrites
         * @property {boolean|null} [recon] Query recon
         * @property {number|null} [retry] Query retry
         * @property {Array.<pesto.SnapshotEntry.$Properties>|null} [snapshot] Query snapshot
         * @property {boolean|null} [digestOnly] Query digestOnly
         * @property {string|null} [timeZone] Query timeZone
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Query.
         * @memberof pesto
         * @interface IQuery
         * @augments pesto.Query.$Properties
         * @deprecated Use pesto.Query.$Properties instead.
         */

        /**
         * Shape of a Query.
         * @typedef {pesto.Query.$Properties} pesto.Query.$Shape
         */

        /**
         * Constructs a new Query.
         * @memberof pesto
         * @classdesc Represents a Query.
         * @constructor
         * @param {pesto.Query.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Query = function (properties) {
            this.ownWrites = [];
            this.snapshot = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Query req.
         * @member {number} req
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.req = 0;

        /**
         * Query ts.
         * @member {pesto.Ts.$Properties|null|undefined} ts
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.ts = null;

        /**
         * Query sql.
         * @member {string} sql
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.sql = "";

        /**
         * Query params.
         * @member {Uint8Array} params
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.params = $util.newBuffer([]);

        /**
         * Query ownWrites.
         * @member {Array.<pesto.WriteEntry.$Properties>} ownWrites
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.ownWrites = $util.emptyArray;

        /**
         * Query recon.
         * @member {boolean} recon
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.recon = false;

        /**
         * Query retry.
         * @member {number} retry
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.retry = 0;

        /**
         * Query snapshot.
         * @member {Array.<pesto.SnapshotEntry.$Properties>} snapshot
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.snapshot = $util.emptyArray;

        /**
         * Query digestOnly.
         * @member {boolean} digestOnly
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.digestOnly = false;

        /**
         * Query timeZone.
         * @member {string} timeZone
         * @memberof pesto.Query
         * @instance
         */
        Query.prototype.timeZone = "";

        /**
         * Encodes the specified Query message. Does not implicitly {@link pesto.Query.verify|verify} messages.
         * @function encode
         * @memberof pesto.Query
         * @static
         * @param {pesto.Query.$Properties} message Query message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Query.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.ts != null && $Object.hasOwnProperty.call(message, "ts"))
                $root.pesto.Ts.encode(message.ts, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.sql != null && $Object.hasOwnProperty.call(message, "sql") && message.sql !== "")
                writer.uint32(/* id 3, wireType 2 =*/26).string(message.sql);
            if (message.params != null && $Object.hasOwnProperty.call(message, "params") && message.params.length)
                writer.uint32(/* id 4, wireType 2 =*/34).bytes(message.params);
            if (message.ownWrites != null && message.ownWrites.length)
                for (let i = 0; i < message.ownWrites.length; ++i)
                    $root.pesto.WriteEntry.encode(message.ownWrites[i], writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.recon != null && $Object.hasOwnProperty.call(message, "recon") && message.recon !== false)
                writer.uint32(/* id 6, wireType 0 =*/48).bool(message.recon);
            if (message.retry != null && $Object.hasOwnProperty.call(message, "retry") && message.retry !== 0)
                writer.uint32(/* id 7, wireType 0 =*/56).uint32(message.retry);
            if (message.snapshot != null && message.snapshot.length)
                for (let i = 0; i < message.snapshot.length; ++i)
                    $root.pesto.SnapshotEntry.encode(message.snapshot[i], writer.uint32(/* id 8, wireType 2 =*/66).fork(), _depth + 1).ldelim();
            if (message.digestOnly != null && $Object.hasOwnProperty.call(message, "digestOnly") && message.digestOnly !== false)
                writer.uint32(/* id 9, wireType 0 =*/72).bool(message.digestOnly);
            if (message.timeZone != null && $Object.hasOwnProperty.call(message, "timeZone") && message.timeZone !== "")
                writer.uint32(/* id 10, wireType 2 =*/82).string(message.timeZone);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Query message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Query
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Query & pesto.Query.$Shape} Query
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Query.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Query();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.ts = $root.pesto.Ts.decode(reader, reader.size(), $undefined, _depth + 1, message.ts);
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.sql = value;
                        else
                            delete message.sql;
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.params = value;
                        else
                            delete message.params;
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if (!(message.ownWrites && message.ownWrites.length))
                            message.ownWrites = [];
                        message.ownWrites.push($root.pesto.WriteEntry.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 6: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.recon = value;
                        else
                            delete message.recon;
                        continue;
                    }
                case 7: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.retry = value;
                        else
                            delete message.retry;
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        if (!(message.snapshot && message.snapshot.length))
                            message.snapshot = [];
                        message.snapshot.push($root.pesto.SnapshotEntry.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 9: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.bool())
                            message.digestOnly = value;
                        else
                            delete message.digestOnly;
                        continue;
                    }
                case 10: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.stringVerify()).length)
                            message.timeZone = value;
                        else
                            delete message.timeZone;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Query
         * @function getTypeUrl
         * @memberof pesto.Query
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Query.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Query";
        };

        return Query;
    })();

    pesto.SnapshotEntry = (function() {

        /**
         * Properties of a SnapshotEntry.
         * @typedef {Object} pesto.SnapshotEntry.$Properties
         * @property {Uint8Array|null} [digest] SnapshotEntry digest
         * @property {Array.<number>|null} [holders] SnapshotEntry holders
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a SnapshotEntry.
         * @memberof pesto
         * @interface ISnapshotEntry
         * @augments pesto.SnapshotEntry.$Properties
         * @deprecated Use pesto.SnapshotEntry.$Properties instead.
         */

        /**
         * Shape of a SnapshotEntry.
         * @typedef {pesto.SnapshotEntry.$Properties} pesto.SnapshotEntry.$Shape
         */

        /**
         * Constructs a new SnapshotEntry.
         * @memberof pesto
         * @classdesc Represents a SnapshotEntry.
         * @constructor
         * @param {pesto.SnapshotEntry.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const SnapshotEntry = function (properties) {
            this.holders = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * SnapshotEntry digest.
         * @member {Uint8Array} digest
         * @memberof pesto.SnapshotEntry
         * @instance
         */
        SnapshotEntry.prototype.digest = $util.newBuffer([]);

        /**
         * SnapshotEntry holders.
         * @member {Array.<number>} holders
         * @memberof pesto.SnapshotEntry
         * @instance
         */
        SnapshotEntry.prototype.holders = $util.emptyArray;

        /**
         * Encodes the specified SnapshotEntry message. Does not implicitly {@link pesto.SnapshotEntry.verify|verify} messages.
         * @function encode
         * @memberof pesto.SnapshotEntry
         * @static
         * @param {pesto.SnapshotEntry.$Properties} message SnapshotEntry message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        SnapshotEntry.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.digest != null && $Object.hasOwnProperty.call(message, "digest") && message.digest.length)
                writer.uint32(/* id 1, wireType 2 =*/10).bytes(message.digest);
            if (message.holders != null && message.holders.length)
                writer.uint32(/* id 2, wireType 2 =*/18).uint32s(message.holders);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a SnapshotEntry message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.SnapshotEntry
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.SnapshotEntry & pesto.SnapshotEntry.$Shape} SnapshotEntry
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        SnapshotEntry.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.SnapshotEntry();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.digest = value;
                        else
                            delete message.digest;
                        continue;
                    }
                case 2: {
                        if (wireType === 2) {
                            if (!(message.holders && message.holders.length))
                                message.holders = [];
                            reader.uint32s(message.holders);
                            continue;
                        }
                        if (wireType !== 0)
                            break;
                        if (!(message.holders && message.holders.length))
                            message.holders = [];
                        message.holders.push(reader.uint32());
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for SnapshotEntry
         * @function getTypeUrl
         * @memberof pesto.SnapshotEntry
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        SnapshotEntry.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.SnapshotEntry";
        };

        return SnapshotEntry;
    })();

    pesto.QueryReply = (function() {

        /**
         * Properties of a QueryReply.
         * @typedef {Object} pesto.QueryReply.$Properties
         * @property {number|null} [req] QueryReply req
         * @property {number|null} [retry] QueryReply retry
         * @property {Array.<pesto.ReadEntry.$Properties>|null} [reads] QueryReply reads
         * @property {Uint8Array|null} [result] QueryReply result
         * @property {Array.<pesto.Predicate.$Properties>|null} [predicates] QueryReply predicates
         * @property {Array.<pesto.Dependency.$Properties>|null} [deps] QueryReply deps
         * @property {Array.<Uint8Array>|null} [snapshotCommitted] QueryReply snapshotCommitted
         * @property {Array.<Uint8Array>|null} [snapshotPrepared] QueryReply snapshotPrepared
         * @property {Uint8Array|null} [bodyDigest] QueryReply bodyDigest
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a QueryReply.
         * @memberof pesto
         * @interface IQueryReply
         * @augments pesto.QueryReply.$Properties
         * @deprecated Use pesto.QueryReply.$Properties instead.
         */

        /**
         * Shape of a QueryReply.
         * @typedef {pesto.QueryReply.$Properties} pesto.QueryReply.$Shape
         */

        /**
         * Constructs a new QueryReply.
         * @memberof pesto
         * @classdesc Represents a QueryReply.
         * @constructor
         * @param {pesto.QueryReply.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const QueryReply = function (properties) {
            this.reads = [];
            this.predicates = [];
            this.deps = [];
            this.snapshotCommitted = [];
            this.snapshotPrepared = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * QueryReply req.
         * @member {number} req
         * @memberof pesto.QueryReply
         * @instance
         */
        QueryReply.prototype.req = 0;

        /**
         * QueryReply retry.
         * @member {number} retry
         * @memberof pesto.QueryReply
         * @instance
         */
        QueryReply.prototype.retry = 0;

        /**
         * QueryReply reads.
         * @member {Array.<pesto.ReadEntry.$Properties>} reads
         * @memberof pesto.QueryReply
         * @instance
         */
        QueryReply.prototype.reads = $util.emptyArray;

        /**
         * QueryReply result.
         * @member {Uint8Array} result
         * @memberof pesto.QueryReply
         * @instance
         */
        QueryReply.prototype.result = $util.newBuffer([]);

        /**
         * QueryReply predicates.
         * @member {Array.<pesto.Predicate.$Properties>} predicates
         * @memberof pesto.QueryReply
         * @instance
         */
        QueryReply.prototype.predicates = $util.emptyArray;

        /**
         * QueryReply deps.
         * @member {Array.<pesto.Dependency.$Properties>} deps
         * @memberof pesto.QueryReply
         * @instance
         */
        QueryReply.prototype.deps = $util.emptyArray;

        /**
         * QueryReply snapshotCommitted.
         * @member {Array.<Uint8Array>} snapshotCommitted
         * @memberof pesto.QueryReply
         * @instance
         */
        QueryReply.prototype.snapshotCommitted = $util.emptyArray;

        /**
         * QueryReply snapshotPrepared.
         * @member {Array.<Uint8Array>} snapshotPrepared
         * @memberof pesto.QueryReply
         * @instance
         */
        QueryReply.prototype.snapshotPrepared = $util.emptyArray;

        /**
         * QueryReply bodyDigest.
         * @member {Uint8Array} bodyDigest
         * @memberof pesto.QueryReply
         * @instance
         */
        QueryReply.prototype.bodyDigest = $util.newBuffer([]);

        /**
         * Encodes the specified QueryReply message. Does not implicitly {@link pesto.QueryReply.verify|verify} messages.
         * @function encode
         * @memberof pesto.QueryReply
         * @static
         * @param {pesto.QueryReply.$Properties} message QueryReply message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        QueryReply.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.retry != null && $Object.hasOwnProperty.call(message, "retry") && message.retry !== 0)
                writer.uint32(/* id 2, wireType 0 =*/16).uint32(message.retry);
            if (message.reads != null && message.reads.length)
                for (let i = 0; i < message.reads.length; ++i)
                    $root.pesto.ReadEntry.encode(message.reads[i], writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.result != null && $Object.hasOwnProperty.call(message, "result") && message.result.length)
                writer.uint32(/* id 4, wireType 2 =*/34).bytes(message.result);
            if (message.predicates != null && message.predicates.length)
                for (let i = 0; i < message.predicates.length; ++i)
                    $root.pesto.Predicate.encode(message.predicates[i], writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.deps != null && message.deps.length)
                for (let i = 0; i < message.deps.length; ++i)
                    $root.pesto.Dependency.encode(message.deps[i], writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.snapshotCommitted != null && message.snapshotCommitted.length)
                for (let i = 0; i < message.snapshotCommitted.length; ++i)
                    writer.uint32(/* id 7, wireType 2 =*/58).bytes(message.snapshotCommitted[i]);
            if (message.snapshotPrepared != null && message.snapshotPrepared.length)
                for (let i = 0; i < message.snapshotPrepared.length; ++i)
                    writer.uint32(/* id 8, wireType 2 =*/66).bytes(message.snapshotPrepared[i]);
            if (message.bodyDigest != null && $Object.hasOwnProperty.call(message, "bodyDigest") && message.bodyDigest.length)
                writer.uint32(/* id 9, wireType 2 =*/74).bytes(message.bodyDigest);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a QueryReply message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.QueryReply
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.QueryReply & pesto.QueryReply.$Shape} QueryReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        QueryReply.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.QueryReply();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.retry = value;
                        else
                            delete message.retry;
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if (!(message.reads && message.reads.length))
                            message.reads = [];
                        message.reads.push($root.pesto.ReadEntry.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.result = value;
                        else
                            delete message.result;
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        if (!(message.predicates && message.predicates.length))
                            message.predicates = [];
                        message.predicates.push($root.pesto.Predicate.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if (!(message.deps && message.deps.length))
                            message.deps = [];
                        message.deps.push($root.pesto.Dependency.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        if (!(message.snapshotCommitted && message.snapshotCommitted.length))
                            message.snapshotCommitted = [];
                        message.snapshotCommitted.push(reader.bytes());
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        if (!(message.snapshotPrepared && message.snapshotPrepared.length))
                            message.snapshotPrepared = [];
                        message.snapshotPrepared.push(reader.bytes());
                        continue;
                    }
                case 9: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.bodyDigest = value;
                        else
                            delete message.bodyDigest;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for QueryReply
         * @function getTypeUrl
         * @memberof pesto.QueryReply
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        QueryReply.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.QueryReply";
        };

        return QueryReply;
    })();

    pesto.Fetch = (function() {

        /**
         * Properties of a Fetch.
         * @typedef {Object} pesto.Fetch.$Properties
         * @property {number|null} [req] Fetch req
         * @property {Array.<Uint8Array>|null} [digests] Fetch digests
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a Fetch.
         * @memberof pesto
         * @interface IFetch
         * @augments pesto.Fetch.$Properties
         * @deprecated Use pesto.Fetch.$Properties instead.
         */

        /**
         * Shape of a Fetch.
         * @typedef {pesto.Fetch.$Properties} pesto.Fetch.$Shape
         */

        /**
         * Constructs a new Fetch.
         * @memberof pesto
         * @classdesc Represents a Fetch.
         * @constructor
         * @param {pesto.Fetch.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Fetch = function (properties) {
            this.digests = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Fetch req.
         * @member {number} req
         * @memberof pesto.Fetch
         * @instance
         */
        Fetch.prototype.req = 0;

        /**
         * Fetch digests.
         * @member {Array.<Uint8Array>} digests
         * @memberof pesto.Fetch
         * @instance
         */
        Fetch.prototype.digests = $util.emptyArray;

        /**
         * Encodes the specified Fetch message. Does not implicitly {@link pesto.Fetch.verify|verify} messages.
         * @function encode
         * @memberof pesto.Fetch
         * @static
         * @param {pesto.Fetch.$Properties} message Fetch message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Fetch.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.digests != null && message.digests.length)
                for (let i = 0; i < message.digests.length; ++i)
                    writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.digests[i]);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a Fetch message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Fetch
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Fetch & pesto.Fetch.$Shape} Fetch
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Fetch.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Fetch();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if (!(message.digests && message.digests.length))
                            message.digests = [];
                        message.digests.push(reader.bytes());
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Fetch
         * @function getTypeUrl
         * @memberof pesto.Fetch
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Fetch.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Fetch";
        };

        return Fetch;
    })();

    pesto.FetchReply = (function() {

        /**
         * Properties of a FetchReply.
         * @typedef {Object} pesto.FetchReply.$Properties
         * @property {number|null} [req] FetchReply req
         * @property {Array.<pesto.Writeback.$Properties>|null} [decided] FetchReply decided
         * @property {Array.<Uint8Array>|null} [prepared] FetchReply prepared
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a FetchReply.
         * @memberof pesto
         * @interface IFetchReply
         * @augments pesto.FetchReply.$Properties
         * @deprecated Use pesto.FetchReply.$Properties instead.
         */

        /**
         * Shape of a FetchReply.
         * @typedef {{
         *   req?: number|null;
         *   decided?: Array.<pesto.Writeback.$Shape>|null;
         *   prepared?: Array.<Uint8Array>|null;
         *   $unknowns?: Array.<Uint8Array>;
         * }} pesto.FetchReply.$Shape
         */

        /**
         * Constructs a new FetchReply.
         * @memberof pesto
         * @classdesc Represents a FetchReply.
         * @constructor
         * @param {pesto.FetchReply.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const FetchReply = function (properties) {
            this.decided = [];
            this.prepared = [];
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * FetchReply req.
         * @member {number} req
         * @memberof pesto.FetchReply
         * @instance
         */
        FetchReply.prototype.req = 0;

        /**
         * FetchReply decided.
         * @member {Array.<pesto.Writeback.$Properties>} decided
         * @memberof pesto.FetchReply
         * @instance
         */
        FetchReply.prototype.decided = $util.emptyArray;

        /**
         * FetchReply prepared.
         * @member {Array.<Uint8Array>} prepared
         * @memberof pesto.FetchReply
         * @instance
         */
        FetchReply.prototype.prepared = $util.emptyArray;

        /**
         * Encodes the specified FetchReply message. Does not implicitly {@link pesto.FetchReply.verify|verify} messages.
         * @function encode
         * @memberof pesto.FetchReply
         * @static
         * @param {pesto.FetchReply.$Properties} message FetchReply message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        FetchReply.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.req != null && $Object.hasOwnProperty.call(message, "req") && message.req !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.req);
            if (message.decided != null && message.decided.length)
                for (let i = 0; i < message.decided.length; ++i)
                    $root.pesto.Writeback.encode(message.decided[i], writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.prepared != null && message.prepared.length)
                for (let i = 0; i < message.prepared.length; ++i)
                    writer.uint32(/* id 3, wireType 2 =*/26).bytes(message.prepared[i]);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a FetchReply message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.FetchReply
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.FetchReply & pesto.FetchReply.$Shape} FetchReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        FetchReply.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.FetchReply();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.req = value;
                        else
                            delete message.req;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if (!(message.decided && message.decided.length))
                            message.decided = [];
                        message.decided.push($root.pesto.Writeback.decode(reader, reader.size(), $undefined, _depth + 1));
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        if (!(message.prepared && message.prepared.length))
                            message.prepared = [];
                        message.prepared.push(reader.bytes());
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for FetchReply
         * @function getTypeUrl
         * @memberof pesto.FetchReply
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        FetchReply.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.FetchReply";
        };

        return FetchReply;
    })();

    pesto.Envelope = (function() {

        /**
         * Properties of an Envelope.
         * @typedef {Object} pesto.Envelope.$Properties
         * @property {pesto.ReadRequest.$Properties|null} [read] Envelope read
         * @property {pesto.ReadReply.$Properties|null} [readReply] Envelope readReply
         * @property {pesto.Prepare.$Properties|null} [prepare] Envelope prepare
         * @property {pesto.PrepareReply.$Properties|null} [prepareReply] Envelope prepareReply
         * @property {pesto.Decide.$Properties|null} [decide] Envelope decide
         * @property {pesto.DecideReply.$Properties|null} [decideReply] Envelope decideReply
         * @property {pesto.Writeback.$Properties|null} [writeback] Envelope writeback
         * @property {pesto.Relay.$Properties|null} [relay] Envelope relay
         * @property {pesto.Elect.$Properties|null} [elect] Envelope elect
         * @property {pesto.DecideReply.$Properties|null} [electReply] Envelope electReply
         * @property {pesto.DecisionFb.$Properties|null} [decisionFb] Envelope decisionFb
         * @property {pesto.Query.$Properties|null} [query] Envelope query
         * @property {pesto.QueryReply.$Properties|null} [queryReply] Envelope queryReply
         * @property {pesto.Fetch.$Properties|null} [fetch] Envelope fetch
         * @property {pesto.FetchReply.$Properties|null} [fetchReply] Envelope fetchReply
         * @property {"read"|"readReply"|"prepare"|"prepareReply"|"decide"|"decideReply"|"writeback"|"relay"|"elect"|"electReply"|"decisionFb"|"query"|"queryReply"|"fetch"|"fetchReply"} [body] Envelope body
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of an Envelope.
         * @memberof pesto
         * @interface IEnvelope
         * @augments pesto.Envelope.$Properties
         * @deprecated Use pesto.Envelope.$Properties instead.
         */

        /**
         * Narrowed shape of an Envelope.
         * @typedef {{
         *   read?: pesto.ReadRequest.$Shape|null;
         *   readReply?: pesto.ReadReply.$Shape|null;
         *   prepare?: pesto.Prepare.$Shape|null;
         *   prepareReply?: pesto.PrepareReply.$Shape|null;
         *   decide?: pesto.Decide.$Shape|null;
         *   decideReply?: pesto.DecideReply.$Shape|null;
         *   writeback?: pesto.Writeback.$Shape|null;
         *   relay?: pesto.Relay.$Shape|null;
         *   elect?: pesto.Elect.$Shape|null;
         *   electReply?: pesto.DecideReply.$Shape|null;
         *   decisionFb?: pesto.DecisionFb.$Shape|null;
         *   query?: pesto.Query.$Shape|null;
         *   queryReply?: pesto.QueryReply.$Shape|null;
         *   fetch?: pesto.Fetch.$Shape|null;
         *   fetchReply?: pesto.FetchReply.$Shape|null;
         *   $unknowns?: Array.<Uint8Array>;
         * } & (
         *   ({ body?: undefined; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "read"; read: pesto.ReadRequest.$Shape; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "readReply"; read?: null; readReply: pesto.ReadReply.$Shape; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "prepare"; read?: null; readReply?: null; prepare: pesto.Prepare.$Shape; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "prepareReply"; read?: null; readReply?: null; prepare?: null; prepareReply: pesto.PrepareReply.$Shape; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "decide"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide: pesto.Decide.$Shape; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "decideReply"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply: pesto.DecideReply.$Shape; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "writeback"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback: pesto.Writeback.$Shape; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "relay"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay: pesto.Relay.$Shape; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "elect"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect: pesto.Elect.$Shape; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "electReply"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply: pesto.DecideReply.$Shape; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "decisionFb"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb: pesto.DecisionFb.$Shape; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "query"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query: pesto.Query.$Shape; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "queryReply"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply: pesto.QueryReply.$Shape; fetch?: null; fetchReply?: null }|{ body?: "fetch"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch: pesto.Fetch.$Shape; fetchReply?: null }|{ body?: "fetchReply"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply: pesto.FetchReply.$Shape })
         * )} pesto.Envelope.$Shape
         */

        /**
         * Constructs a new Envelope.
         * @memberof pesto
         * @classdesc Represents an Envelope.
         * @constructor
         * @param {pesto.Envelope.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const Envelope = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * Envelope read.
         * @member {pesto.ReadRequest.$Properties|null|undefined} read
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.read = null;

        /**
         * Envelope readReply.
         * @member {pesto.ReadReply.$Properties|null|undefined} readReply
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.readReply = null;

        /**
         * Envelope prepare.
         * @member {pesto.Prepare.$Properties|null|undefined} prepare
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.prepare = null;

        /**
         * Envelope prepareReply.
         * @member {pesto.PrepareReply.$Properties|null|undefined} prepareReply
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.prepareReply = null;

        /**
         * Envelope decide.
         * @member {pesto.Decide.$Properties|null|undefined} decide
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.decide = null;

        /**
         * Envelope decideReply.
         * @member {pesto.DecideReply.$Properties|null|undefined} decideReply
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.decideReply = null;

        /**
         * Envelope writeback.
         * @member {pesto.Writeback.$Properties|null|undefined} writeback
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.writeback = null;

        /**
         * Envelope relay.
         * @member {pesto.Relay.$Properties|null|undefined} relay
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.relay = null;

        /**
         * Envelope elect.
         * @member {pesto.Elect.$Properties|null|undefined} elect
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.elect = null;

        /**
         * Envelope electReply.
         * @member {pesto.DecideReply.$Properties|null|undefined} electReply
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.electReply = null;

        /**
         * Envelope decisionFb.
         * @member {pesto.DecisionFb.$Properties|null|undefined} decisionFb
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.decisionFb = null;

        /**
         * Envelope query.
         * @member {pesto.Query.$Properties|null|undefined} query
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.query = null;

        /**
         * Envelope queryReply.
         * @member {pesto.QueryReply.$Properties|null|undefined} queryReply
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.queryReply = null;

        /**
         * Envelope fetch.
         * @member {pesto.Fetch.$Properties|null|undefined} fetch
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.fetch = null;

        /**
         * Envelope fetchReply.
         * @member {pesto.FetchReply.$Properties|null|undefined} fetchReply
         * @memberof pesto.Envelope
         * @instance
         */
        Envelope.prototype.fetchReply = null;

        // OneOf field names bound to virtual getters and setters
        let $oneOfFields;

        /**
         * Envelope body.
         * @member {"read"|"readReply"|"prepare"|"prepareReply"|"decide"|"decideReply"|"writeback"|"relay"|"elect"|"electReply"|"decisionFb"|"query"|"queryReply"|"fetch"|"fetchReply"|undefined} body
         * @memberof pesto.Envelope
         * @instance
         */
        $Object.defineProperty(Envelope.prototype, "body", {
            get: $util.oneOfGetter($oneOfFields = ["read", "readReply", "prepare", "prepareReply", "decide", "decideReply", "writeback", "relay", "elect", "electReply", "decisionFb", "query", "queryReply", "fetch", "fetchReply"]),
            set: $util.oneOfSetter($oneOfFields)
        });

        /**
         * Encodes the specified Envelope message. Does not implicitly {@link pesto.Envelope.verify|verify} messages.
         * @function encode
         * @memberof pesto.Envelope
         * @static
         * @param {pesto.Envelope.$Properties} message Envelope message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        Envelope.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.read != null && $Object.hasOwnProperty.call(message, "read"))
                $root.pesto.ReadRequest.encode(message.read, writer.uint32(/* id 1, wireType 2 =*/10).fork(), _depth + 1).ldelim();
            if (message.readReply != null && $Object.hasOwnProperty.call(message, "readReply"))
                $root.pesto.ReadReply.encode(message.readReply, writer.uint32(/* id 2, wireType 2 =*/18).fork(), _depth + 1).ldelim();
            if (message.prepare != null && $Object.hasOwnProperty.call(message, "prepare"))
                $root.pesto.Prepare.encode(message.prepare, writer.uint32(/* id 3, wireType 2 =*/26).fork(), _depth + 1).ldelim();
            if (message.prepareReply != null && $Object.hasOwnProperty.call(message, "prepareReply"))
                $root.pesto.PrepareReply.encode(message.prepareReply, writer.uint32(/* id 4, wireType 2 =*/34).fork(), _depth + 1).ldelim();
            if (message.decide != null && $Object.hasOwnProperty.call(message, "decide"))
                $root.pesto.Decide.encode(message.decide, writer.uint32(/* id 5, wireType 2 =*/42).fork(), _depth + 1).ldelim();
            if (message.decideReply != null && $Object.hasOwnProperty.call(message, "decideReply"))
                $root.pesto.DecideReply.encode(message.decideReply, writer.uint32(/* id 6, wireType 2 =*/50).fork(), _depth + 1).ldelim();
            if (message.writeback != null && $Object.hasOwnProperty.call(message, "writeback"))
                $root.pesto.Writeback.encode(message.writeback, writer.uint32(/* id 7, wireType 2 =*/58).fork(), _depth + 1).ldelim();
            if (message.relay != null && $Object.hasOwnProperty.call(message, "relay"))
                $root.pesto.Relay.encode(message.relay, writer.uint32(/* id 8, wireType 2 =*/66).fork(), _depth + 1).ldelim();
            if (message.elect != null && $Object.hasOwnProperty.call(message, "elect"))
                $root.pesto.Elect.encode(message.elect, writer.uint32(/* id 9, wireType 2 =*/74).fork(), _depth + 1).ldelim();
            if (message.electReply != null && $Object.hasOwnProperty.call(message, "electReply"))
                $root.pesto.DecideReply.encode(message.electReply, writer.uint32(/* id 10, wireType 2 =*/82).fork(), _depth + 1).ldelim();
            if (message.decisionFb != null && $Object.hasOwnProperty.call(message, "decisionFb"))
                $root.pesto.DecisionFb.encode(message.decisionFb, writer.uint32(/* id 11, wireType 2 =*/90).fork(), _depth + 1).ldelim();
            if (message.query != null && $Object.hasOwnProperty.call(message, "query"))
                $root.pesto.Query.encode(message.query, writer.uint32(/* id 12, wireType 2 =*/98).fork(), _depth + 1).ldelim();
            if (message.queryReply != null && $Object.hasOwnProperty.call(message, "queryReply"))
                $root.pesto.QueryReply.encode(message.queryReply, writer.uint32(/* id 13, wireType 2 =*/106).fork(), _depth + 1).ldelim();
            if (message.fetch != null && $Object.hasOwnProperty.call(message, "fetch"))
                $root.pesto.Fetch.encode(message.fetch, writer.uint32(/* id 14, wireType 2 =*/114).fork(), _depth + 1).ldelim();
            if (message.fetchReply != null && $Object.hasOwnProperty.call(message, "fetchReply"))
                $root.pesto.FetchReply.encode(message.fetchReply, writer.uint32(/* id 15, wireType 2 =*/122).fork(), _depth + 1).ldelim();
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes an Envelope message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.Envelope
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.Envelope & pesto.Envelope.$Shape} Envelope
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        Envelope.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.Envelope();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 2)
                            break;
                        message.read = $root.pesto.ReadRequest.decode(reader, reader.size(), $undefined, _depth + 1, message.read);
                        message.body = "read";
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        message.readReply = $root.pesto.ReadReply.decode(reader, reader.size(), $undefined, _depth + 1, message.readReply);
                        message.body = "readReply";
                        continue;
                    }
                case 3: {
                        if (wireType !== 2)
                            break;
                        message.prepare = $root.pesto.Prepare.decode(reader, reader.size(), $undefined, _depth + 1, message.prepare);
                        message.body = "prepare";
                        continue;
                    }
                case 4: {
                        if (wireType !== 2)
                            break;
                        message.prepareReply = $root.pesto.PrepareReply.decode(reader, reader.size(), $undefined, _depth + 1, message.prepareReply);
                        message.body = "prepareReply";
                        continue;
                    }
                case 5: {
                        if (wireType !== 2)
                            break;
                        message.decide = $root.pesto.Decide.decode(reader, reader.size(), $undefined, _depth + 1, message.decide);
                        message.body = "decide";
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        message.decideReply = $root.pesto.DecideReply.decode(reader, reader.size(), $undefined, _depth + 1, message.decideReply);
                        message.body = "decideReply";
                        continue;
                    }
                case 7: {
                        if (wireType !== 2)
                            break;
                        message.writeback = $root.pesto.Writeback.decode(reader, reader.size(), $undefined, _depth + 1, message.writeback);
                        message.body = "writeback";
                        continue;
                    }
                case 8: {
                        if (wireType !== 2)
                            break;
                        message.relay = $root.pesto.Relay.decode(reader, reader.size(), $undefined, _depth + 1, message.relay);
                        message.body = "relay";
                        continue;
                    }
                case 9: {
                        if (wireType !== 2)
                            break;
                        message.elect = $root.pesto.Elect.decode(reader, reader.size(), $undefined, _depth + 1, message.elect);
                        message.body = "elect";
                        continue;
                    }
                case 10: {
                        if (wireType !== 2)
                            break;
                        message.electReply = $root.pesto.DecideReply.decode(reader, reader.size(), $undefined, _depth + 1, message.electReply);
                        message.body = "electReply";
                        continue;
                    }
                case 11: {
                        if (wireType !== 2)
                            break;
                        message.decisionFb = $root.pesto.DecisionFb.decode(reader, reader.size(), $undefined, _depth + 1, message.decisionFb);
                        message.body = "decisionFb";
                        continue;
                    }
                case 12: {
                        if (wireType !== 2)
                            break;
                        message.query = $root.pesto.Query.decode(reader, reader.size(), $undefined, _depth + 1, message.query);
                        message.body = "query";
                        continue;
                    }
                case 13: {
                        if (wireType !== 2)
                            break;
                        message.queryReply = $root.pesto.QueryReply.decode(reader, reader.size(), $undefined, _depth + 1, message.queryReply);
                        message.body = "queryReply";
                        continue;
                    }
                case 14: {
                        if (wireType !== 2)
                            break;
                        message.fetch = $root.pesto.Fetch.decode(reader, reader.size(), $undefined, _depth + 1, message.fetch);
                        message.body = "fetch";
                        continue;
                    }
                case 15: {
                        if (wireType !== 2)
                            break;
                        message.fetchReply = $root.pesto.FetchReply.decode(reader, reader.size(), $undefined, _depth + 1, message.fetchReply);
                        message.body = "fetchReply";
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for Envelope
         * @function getTypeUrl
         * @memberof pesto.Envelope
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        Envelope.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.Envelope";
        };

        return Envelope;
    })();

    pesto.LogRecord = (function() {

        /**
         * Properties of a LogRecord.
         * @typedef {Object} pesto.LogRecord.$Properties
         * @property {number|null} [kind] LogRecord kind
         * @property {Uint8Array|null} [txn] LogRecord txn
         * @property {pesto.Decision|null} [decision] LogRecord decision
         * @property {number|null} [view] LogRecord view
         * @property {number|null} [logShard] LogRecord logShard
         * @property {Uint8Array|null} [message] LogRecord message
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */

        /**
         * Properties of a LogRecord.
         * @memberof pesto
         * @interface ILogRecord
         * @augments pesto.LogRecord.$Properties
         * @deprecated Use pesto.LogRecord.$Properties instead.
         */

        /**
         * Shape of a LogRecord.
         * @typedef {pesto.LogRecord.$Properties} pesto.LogRecord.$Shape
         */

        /**
         * Constructs a new LogRecord.
         * @memberof pesto
         * @classdesc Represents a LogRecord.
         * @constructor
         * @param {pesto.LogRecord.$Properties=} [properties] Properties to set
         * @property {Array.<Uint8Array>} [$unknowns] Unknown fields preserved while decoding when enabled
         */
        const LogRecord = function (properties) {
            if (properties)
                for (let keys = $Object.keys(properties), i = 0; i < keys.length; ++i)
                    if (properties[keys[i]] != null && keys[i] !== "__proto__")
                        this[keys[i]] = properties[keys[i]];
        };

        /**
         * LogRecord kind.
         * @member {number} kind
         * @memberof pesto.LogRecord
         * @instance
         */
        LogRecord.prototype.kind = 0;

        /**
         * LogRecord txn.
         * @member {Uint8Array} txn
         * @memberof pesto.LogRecord
         * @instance
         */
        LogRecord.prototype.txn = $util.newBuffer([]);

        /**
         * LogRecord decision.
         * @member {pesto.Decision} decision
         * @memberof pesto.LogRecord
         * @instance
         */
        LogRecord.prototype.decision = 0;

        /**
         * LogRecord view.
         * @member {number} view
         * @memberof pesto.LogRecord
         * @instance
         */
        LogRecord.prototype.view = 0;

        /**
         * LogRecord logShard.
         * @member {number} logShard
         * @memberof pesto.LogRecord
         * @instance
         */
        LogRecord.prototype.logShard = 0;

        /**
         * LogRecord message.
         * @member {Uint8Array} message
         * @memberof pesto.LogRecord
         * @instance
         */
        LogRecord.prototype.message = $util.newBuffer([]);

        /**
         * Encodes the specified LogRecord message. Does not implicitly {@link pesto.LogRecord.verify|verify} messages.
         * @function encode
         * @memberof pesto.LogRecord
         * @static
         * @param {pesto.LogRecord.$Properties} message LogRecord message or plain object to encode
         * @param {$protobuf.Writer} [writer] Writer to encode to
         * @returns {$protobuf.Writer} Writer
         */
        LogRecord.encode = function (message, writer, _depth) {
            if (!writer)
                writer = $Writer.create();
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $util.recursionLimit)
                throw $Error("max depth exceeded");
            if (message.kind != null && $Object.hasOwnProperty.call(message, "kind") && message.kind !== 0)
                writer.uint32(/* id 1, wireType 0 =*/8).uint32(message.kind);
            if (message.txn != null && $Object.hasOwnProperty.call(message, "txn") && message.txn.length)
                writer.uint32(/* id 2, wireType 2 =*/18).bytes(message.txn);
            if (message.decision != null && $Object.hasOwnProperty.call(message, "decision") && message.decision !== 0)
                writer.uint32(/* id 3, wireType 0 =*/24).int32(message.decision);
            if (message.view != null && $Object.hasOwnProperty.call(message, "view") && message.view !== 0)
                writer.uint32(/* id 4, wireType 0 =*/32).uint32(message.view);
            if (message.logShard != null && $Object.hasOwnProperty.call(message, "logShard") && message.logShard !== 0)
                writer.uint32(/* id 5, wireType 0 =*/40).uint32(message.logShard);
            if (message.message != null && $Object.hasOwnProperty.call(message, "message") && message.message.length)
                writer.uint32(/* id 6, wireType 2 =*/50).bytes(message.message);
            if (message.$unknowns != null && $Object.hasOwnProperty.call(message, "$unknowns"))
                for (let i = 0; i < message.$unknowns.length; ++i)
                    writer.raw(message.$unknowns[i]);
            return writer;
        };

        /**
         * Decodes a LogRecord message from the specified reader or buffer.
         * @function decode
         * @memberof pesto.LogRecord
         * @static
         * @param {$protobuf.Reader|Uint8Array} reader Reader or buffer to decode from
         * @param {number} [length] Message length if known beforehand
         * @returns {pesto.LogRecord & pesto.LogRecord.$Shape} LogRecord
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        LogRecord.decode = function (reader, length, _end, _depth, _target) {
            if (!(reader instanceof $Reader))
                reader = $Reader.create(reader);
            if (_depth === $undefined)
                _depth = 0;
            if (_depth > $Reader.recursionLimit)
                throw $Error("max depth exceeded");
            let end, message, value;
            if (length === $undefined)
                end = reader.len;
            else {
                end = reader.pos + length;
                if (end > reader.len)
                    throw $RangeError("index out of range");
                length = reader.len;
                reader.len = end;
            }
            message = _target || new $root.pesto.LogRecord();
            while (reader.pos < end) {
                let start = reader.pos;
                let tag = reader.tag();
                if (tag === _end) {
                    _end = $undefined;
                    break;
                }
                let wireType = tag & 7;
                switch (tag >>>= 3) {
                case 1: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.kind = value;
                        else
                            delete message.kind;
                        continue;
                    }
                case 2: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.txn = value;
                        else
                            delete message.txn;
                        continue;
                    }
                case 3: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.int32())
                            message.decision = value;
                        else
                            delete message.decision;
                        continue;
                    }
                case 4: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.view = value;
                        else
                            delete message.view;
                        continue;
                    }
                case 5: {
                        if (wireType !== 0)
                            break;
                        if (value = reader.uint32())
                            message.logShard = value;
                        else
                            delete message.logShard;
                        continue;
                    }
                case 6: {
                        if (wireType !== 2)
                            break;
                        if ((value = reader.bytes()).length)
                            message.message = value;
                        else
                            delete message.message;
                        continue;
                    }
                }
                reader.skipType(wireType, _depth, tag);
                if (!reader.discardUnknown) {
                    $util.makeProp(message, "$unknowns", false);
                    (message.$unknowns || (message.$unknowns = [])).push(reader.raw(start, reader.pos));
                }
            }
            if (length !== $undefined) {
                if (reader.pos !== end)
                    throw $RangeError("index out of range");
                reader.len = length;
            }
            if (_end !== $undefined)
                throw $Error("missing end group");
            return message;
        };

        /**
         * Gets the type url for LogRecord
         * @function getTypeUrl
         * @memberof pesto.LogRecord
         * @static
         * @param {string} [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns {string} The type url
         */
        LogRecord.getTypeUrl = function(prefix) {
            if (prefix === $undefined)
                prefix = "type.googleapis.com";
            return prefix + "/pesto.LogRecord";
        };

        return LogRecord;
    })();

    return pesto;
})();

export {
  $root as default
};
