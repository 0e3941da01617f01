import * as $protobuf from "protobufjs";
import Long = require("long");

/** Namespace pesto. */
export namespace pesto {

    /**
     * Properties of a Ts.
     * @deprecated Use pesto.Ts.$Properties instead.
     */
    interface ITs extends pesto.Ts.$Properties {
    }

    /** Represents a Ts. */
    class Ts {

        /**
         * Constructs a new Ts.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Ts.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Ts micros. */
        micros: number;

        /** Ts client. */
        client: number;

        /**
         * Encodes the specified Ts message. Does not implicitly {@link pesto.Ts.verify|verify} messages.
         * @param message Ts message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Ts.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Ts message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Ts & pesto.Ts.$Shape} Ts
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Ts & pesto.Ts.$Shape;

        /**
         * Gets the type url for Ts
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Ts {

        /** Properties of a Ts. */
        interface $Properties {

            /** Ts micros */
            micros?: (number|null);

            /** Ts client */
            client?: (number|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Ts. */
        type $Shape = pesto.Ts.$Properties;
    }

    /** Decision enum. */
    enum Decision {

        /** COMMIT value */
        COMMIT = 0,

        /** ABSTAIN value */
        ABSTAIN = 1,

        /** ABORT value */
        ABORT = 2
    }

    /**
     * Properties of a ReadEntry.
     * @deprecated Use pesto.ReadEntry.$Properties instead.
     */
    interface IReadEntry extends pesto.ReadEntry.$Properties {
    }

    /** Represents a ReadEntry. */
    class ReadEntry {

        /**
         * Constructs a new ReadEntry.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.ReadEntry.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ReadEntry key. */
        key: Uint8Array;

        /** ReadEntry version. */
        version?: (pesto.Ts.$Properties|null);

        /**
         * Encodes the specified ReadEntry message. Does not implicitly {@link pesto.ReadEntry.verify|verify} messages.
         * @param message ReadEntry message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.ReadEntry.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ReadEntry message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.ReadEntry & pesto.ReadEntry.$Shape} ReadEntry
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.ReadEntry & pesto.ReadEntry.$Shape;

        /**
         * Gets the type url for ReadEntry
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace ReadEntry {

        /** Properties of a ReadEntry. */
        interface $Properties {

            /** ReadEntry key */
            key?: (Uint8Array|null);

            /** ReadEntry version */
            version?: (pesto.Ts.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ReadEntry. */
        type $Shape = pesto.ReadEntry.$Properties;
    }

    /**
     * Properties of a WriteEntry.
     * @deprecated Use pesto.WriteEntry.$Properties instead.
     */
    interface IWriteEntry extends pesto.WriteEntry.$Properties {
    }

    /** Represents a WriteEntry. */
    class WriteEntry {

        /**
         * Constructs a new WriteEntry.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.WriteEntry.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** WriteEntry key. */
        key: Uint8Array;

        /** WriteEntry value. */
        value: Uint8Array;

        /** WriteEntry deleted. */
        deleted: boolean;

        /**
         * Encodes the specified WriteEntry message. Does not implicitly {@link pesto.WriteEntry.verify|verify} messages.
         * @param message WriteEntry message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.WriteEntry.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a WriteEntry message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.WriteEntry & pesto.WriteEntry.$Shape} WriteEntry
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.WriteEntry & pesto.WriteEntry.$Shape;

        /**
         * Gets the type url for WriteEntry
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace WriteEntry {

        /** Properties of a WriteEntry. */
        interface $Properties {

            /** WriteEntry key */
            key?: (Uint8Array|null);

            /** WriteEntry value */
            value?: (Uint8Array|null);

            /** WriteEntry deleted */
            deleted?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a WriteEntry. */
        type $Shape = pesto.WriteEntry.$Properties;
    }

    /**
     * Properties of a Dependency.
     * @deprecated Use pesto.Dependency.$Properties instead.
     */
    interface IDependency extends pesto.Dependency.$Properties {
    }

    /** Represents a Dependency. */
    class Dependency {

        /**
         * Constructs a new Dependency.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Dependency.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Dependency digest. */
        digest: Uint8Array;

        /** Dependency shard. */
        shard: number;

        /** Dependency ts. */
        ts?: (pesto.Ts.$Properties|null);

        /**
         * Encodes the specified Dependency message. Does not implicitly {@link pesto.Dependency.verify|verify} messages.
         * @param message Dependency message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Dependency.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Dependency message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Dependency & pesto.Dependency.$Shape} Dependency
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Dependency & pesto.Dependency.$Shape;

        /**
         * Gets the type url for Dependency
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Dependency {

        /** Properties of a Dependency. */
        interface $Properties {

            /** Dependency digest */
            digest?: (Uint8Array|null);

            /** Dependency shard */
            shard?: (number|null);

            /** Dependency ts */
            ts?: (pesto.Ts.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Dependency. */
        type $Shape = pesto.Dependency.$Properties;
    }

    /**
     * Properties of a Predicate.
     * @deprecated Use pesto.Predicate.$Properties instead.
     */
    interface IPredicate extends pesto.Predicate.$Properties {
    }

    /** Represents a Predicate. */
    class Predicate {

        /**
         * Constructs a new Predicate.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Predicate.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Predicate table. */
        table: number;

        /** Predicate tableVersion. */
        tableVersion?: (pesto.Ts.$Properties|null);

        /** Predicate expr. */
        expr: Uint8Array;

        /**
         * Encodes the specified Predicate message. Does not implicitly {@link pesto.Predicate.verify|verify} messages.
         * @param message Predicate message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Predicate.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Predicate message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Predicate & pesto.Predicate.$Shape} Predicate
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Predicate & pesto.Predicate.$Shape;

        /**
         * Gets the type url for Predicate
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Predicate {

        /** Properties of a Predicate. */
        interface $Properties {

            /** Predicate table */
            table?: (number|null);

            /** Predicate tableVersion */
            tableVersion?: (pesto.Ts.$Properties|null);

            /** Predicate expr */
            expr?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Predicate. */
        type $Shape = pesto.Predicate.$Properties;
    }

    /**
     * Properties of a TxnBody.
     * @deprecated Use pesto.TxnBody.$Properties instead.
     */
    interface ITxnBody extends pesto.TxnBody.$Properties {
    }

    /** Represents a TxnBody. */
    class TxnBody {

        /**
         * Constructs a new TxnBody.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.TxnBody.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** TxnBody ts. */
        ts?: (pesto.Ts.$Properties|null);

        /** TxnBody shards. */
        shards: number[];

        /** TxnBody reads. */
        reads: pesto.ReadEntry.$Properties[];

        /** TxnBody writes. */
        writes: pesto.WriteEntry.$Properties[];

        /** TxnBody deps. */
        deps: pesto.Dependency.$Properties[];

        /** TxnBody predicates. */
        predicates: pesto.Predicate.$Properties[];

        /** TxnBody meta. */
        meta: Uint8Array;

        /**
         * Encodes the specified TxnBody message. Does not implicitly {@link pesto.TxnBody.verify|verify} messages.
         * @param message TxnBody message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.TxnBody.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a TxnBody message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.TxnBody & pesto.TxnBody.$Shape} TxnBody
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.TxnBody & pesto.TxnBody.$Shape;

        /**
         * Gets the type url for TxnBody
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace TxnBody {

        /** Properties of a TxnBody. */
        interface $Properties {

            /** TxnBody ts */
            ts?: (pesto.Ts.$Properties|null);

            /** TxnBody shards */
            shards?: (number[]|null);

            /** TxnBody reads */
            reads?: (pesto.ReadEntry.$Properties[]|null);

            /** TxnBody writes */
            writes?: (pesto.WriteEntry.$Properties[]|null);

            /** TxnBody deps */
            deps?: (pesto.Dependency.$Properties[]|null);

            /** TxnBody predicates */
            predicates?: (pesto.Predicate.$Properties[]|null);

            /** TxnBody meta */
            meta?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a TxnBody. */
        type $Shape = pesto.TxnBody.$Properties;
    }

    /**
     * Properties of a SigProof.
     * @deprecated Use pesto.SigProof.$Properties instead.
     */
    interface ISigProof extends pesto.SigProof.$Properties {
    }

    /** Represents a SigProof. */
    class SigProof {

        /**
         * Constructs a new SigProof.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.SigProof.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** SigProof signer. */
        signer: number;

        /** SigProof rootSig. */
        rootSig: Uint8Array;

        /** SigProof index. */
        index: number;

        /** SigProof path. */
        path: Uint8Array;

        /** SigProof macs. */
        macs: Uint8Array;

        /**
         * Encodes the specified SigProof message. Does not implicitly {@link pesto.SigProof.verify|verify} messages.
         * @param message SigProof message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.SigProof.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a SigProof message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.SigProof & pesto.SigProof.$Shape} SigProof
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.SigProof & pesto.SigProof.$Shape;

        /**
         * Gets the type url for SigProof
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace SigProof {

        /** Properties of a SigProof. */
        interface $Properties {

            /** SigProof signer */
            signer?: (number|null);

            /** SigProof rootSig */
            rootSig?: (Uint8Array|null);

            /** SigProof index */
            index?: (number|null);

            /** SigProof path */
            path?: (Uint8Array|null);

            /** SigProof macs */
            macs?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a SigProof. */
        type $Shape = pesto.SigProof.$Properties;
    }

    /**
     * Properties of a ShardSigs.
     * @deprecated Use pesto.ShardSigs.$Properties instead.
     */
    interface IShardSigs extends pesto.ShardSigs.$Properties {
    }

    /** Represents a ShardSigs. */
    class ShardSigs {

        /**
         * Constructs a new ShardSigs.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.ShardSigs.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ShardSigs shard. */
        shard: number;

        /** ShardSigs sigs. */
        sigs: pesto.SigProof.$Properties[];

        /**
         * Encodes the specified ShardSigs message. Does not implicitly {@link pesto.ShardSigs.verify|verify} messages.
         * @param message ShardSigs message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.ShardSigs.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ShardSigs message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.ShardSigs & pesto.ShardSigs.$Shape} ShardSigs
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.ShardSigs & pesto.ShardSigs.$Shape;

        /**
         * Gets the type url for ShardSigs
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace ShardSigs {

        /** Properties of a ShardSigs. */
        interface $Properties {

            /** ShardSigs shard */
            shard?: (number|null);

            /** ShardSigs sigs */
            sigs?: (pesto.SigProof.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ShardSigs. */
        type $Shape = pesto.ShardSigs.$Properties;
    }

    /**
     * Properties of a VoteCert.
     * @deprecated Use pesto.VoteCert.$Properties instead.
     */
    interface IVoteCert extends pesto.VoteCert.$Properties {
    }

    /** Represents a VoteCert. */
    class VoteCert {

        /**
         * Constructs a new VoteCert.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.VoteCert.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** VoteCert decision. */
        decision: pesto.Decision;

        /** VoteCert shards. */
        shards: pesto.ShardSigs.$Properties[];

        /**
         * Encodes the specified VoteCert message. Does not implicitly {@link pesto.VoteCert.verify|verify} messages.
         * @param message VoteCert message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.VoteCert.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a VoteCert message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.VoteCert & pesto.VoteCert.$Shape} VoteCert
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.VoteCert & pesto.VoteCert.$Shape;

        /**
         * Gets the type url for VoteCert
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace VoteCert {

        /** Properties of a VoteCert. */
        interface $Properties {

            /** VoteCert decision */
            decision?: (pesto.Decision|null);

            /** VoteCert shards */
            shards?: (pesto.ShardSigs.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a VoteCert. */
        type $Shape = pesto.VoteCert.$Properties;
    }

    /**
     * Properties of a St2Cert.
     * @deprecated Use pesto.St2Cert.$Properties instead.
     */
    interface ISt2Cert extends pesto.St2Cert.$Properties {
    }

    /** Represents a St2Cert. */
    class St2Cert {

        /**
         * Constructs a new St2Cert.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.St2Cert.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** St2Cert decision. */
        decision: pesto.Decision;

        /** St2Cert logShard. */
        logShard: number;

        /** St2Cert view. */
        view: number;

        /** St2Cert sigs. */
        sigs: pesto.SigProof.$Properties[];

        /**
         * Encodes the specified St2Cert message. Does not implicitly {@link pesto.St2Cert.verify|verify} messages.
         * @param message St2Cert message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.St2Cert.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a St2Cert message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.St2Cert & pesto.St2Cert.$Shape} St2Cert
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.St2Cert & pesto.St2Cert.$Shape;

        /**
         * Gets the type url for St2Cert
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace St2Cert {

        /** Properties of a St2Cert. */
        interface $Properties {

            /** St2Cert decision */
            decision?: (pesto.Decision|null);

            /** St2Cert logShard */
            logShard?: (number|null);

            /** St2Cert view */
            view?: (number|null);

            /** St2Cert sigs */
            sigs?: (pesto.SigProof.$Properties[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a St2Cert. */
        type $Shape = pesto.St2Cert.$Properties;
    }

    /**
     * Properties of a CommittedTxn.
     * @deprecated Use pesto.CommittedTxn.$Properties instead.
     */
    interface ICommittedTxn extends pesto.CommittedTxn.$Properties {
    }

    /** Represents a CommittedTxn. */
    class CommittedTxn {

        /**
         * Constructs a new CommittedTxn.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.CommittedTxn.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** CommittedTxn txn. */
        txn: Uint8Array;

        /** CommittedTxn fast. */
        fast?: (pesto.VoteCert.$Properties|null);

        /** CommittedTxn slow. */
        slow?: (pesto.St2Cert.$Properties|null);

        /**
         * Encodes the specified CommittedTxn message. Does not implicitly {@link pesto.CommittedTxn.verify|verify} messages.
         * @param message CommittedTxn message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.CommittedTxn.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a CommittedTxn message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.CommittedTxn & pesto.CommittedTxn.$Shape} CommittedTxn
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.CommittedTxn & pesto.CommittedTxn.$Shape;

        /**
         * Gets the type url for CommittedTxn
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace CommittedTxn {

        /** Properties of a CommittedTxn. */
        interface $Properties {

            /** CommittedTxn txn */
            txn?: (Uint8Array|null);

            /** CommittedTxn fast */
            fast?: (pesto.VoteCert.$Properties|null);

            /** CommittedTxn slow */
            slow?: (pesto.St2Cert.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a CommittedTxn. */
        type $Shape = pesto.CommittedTxn.$Properties;
    }

    /**
     * Properties of a Certificate.
     * @deprecated Use pesto.Certificate.$Properties instead.
     */
    interface ICertificate extends pesto.Certificate.$Properties {
    }

    /** Represents a Certificate. */
    class Certificate {

        /**
         * Constructs a new Certificate.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Certificate.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Certificate votes. */
        votes?: (pesto.VoteCert.$Properties|null);

        /** Certificate st2. */
        st2?: (pesto.St2Cert.$Properties|null);

        /** Certificate conflict. */
        conflict?: (pesto.CommittedTxn.$Properties|null);

        /** Certificate kind. */
        kind?: ("votes"|"st2"|"conflict");

        /**
         * Encodes the specified Certificate message. Does not implicitly {@link pesto.Certificate.verify|verify} messages.
         * @param message Certificate message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Certificate.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Certificate message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Certificate & pesto.Certificate.$Shape} Certificate
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Certificate & pesto.Certificate.$Shape;

        /**
         * Gets the type url for Certificate
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Certificate {

        /** Properties of a Certificate. */
        interface $Properties {

            /** Certificate votes */
            votes?: (pesto.VoteCert.$Properties|null);

            /** Certificate st2 */
            st2?: (pesto.St2Cert.$Properties|null);

            /** Certificate conflict */
            conflict?: (pesto.CommittedTxn.$Properties|null);

            /** Certificate kind */
            kind?: ("votes"|"st2"|"conflict");

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Narrowed shape of a Certificate. */
        type $Shape = {
          votes?: pesto.VoteCert.$Shape|null;
          st2?: pesto.St2Cert.$Shape|null;
          conflict?: pesto.CommittedTxn.$Shape|null;
          $unknowns?: Uint8Array[];
        } & (
          ({ kind?: undefined; votes?: null; st2?: null; conflict?: null }|{ kind?: "votes"; votes: pesto.VoteCert.$Shape; st2?: null; conflict?: null }|{ kind?: "st2"; votes?: null; st2: pesto.St2Cert.$Shape; conflict?: null }|{ kind?: "conflict"; votes?: null; st2?: null; conflict: pesto.CommittedTxn.$Shape })
        );
    }

    /**
     * Properties of a ReadRequest.
     * @deprecated Use pesto.ReadRequest.$Properties instead.
     */
    interface IReadRequest extends pesto.ReadRequest.$Properties {
    }

    /** Represents a ReadRequest. */
    class ReadRequest {

        /**
         * Constructs a new ReadRequest.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.ReadRequest.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ReadRequest req. */
        req: number;

        /** ReadRequest key. */
        key: Uint8Array;

        /** ReadRequest ts. */
        ts?: (pesto.Ts.$Properties|null);

        /** ReadRequest proof. */
        proof: boolean;

        /**
         * Encodes the specified ReadRequest message. Does not implicitly {@link pesto.ReadRequest.verify|verify} messages.
         * @param message ReadRequest message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.ReadRequest.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ReadRequest message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.ReadRequest & pesto.ReadRequest.$Shape} ReadRequest
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.ReadRequest & pesto.ReadRequest.$Shape;

        /**
         * Gets the type url for ReadRequest
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace ReadRequest {

        /** Properties of a ReadRequest. */
        interface $Properties {

            /** ReadRequest req */
            req?: (number|null);

            /** ReadRequest key */
            key?: (Uint8Array|null);

            /** ReadRequest ts */
            ts?: (pesto.Ts.$Properties|null);

            /** ReadRequest proof */
            proof?: (boolean|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ReadRequest. */
        type $Shape = pesto.ReadRequest.$Properties;
    }

    /**
     * Properties of a ReadReply.
     * @deprecated Use pesto.ReadReply.$Properties instead.
     */
    interface IReadReply extends pesto.ReadReply.$Properties {
    }

    /** Represents a ReadReply. */
    class ReadReply {

        /**
         * Constructs a new ReadReply.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.ReadReply.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** ReadReply req. */
        req: number;

        /** ReadReply key. */
        key: Uint8Array;

        /** ReadReply committedVersion. */
        committedVersion?: (pesto.Ts.$Properties|null);

        /** ReadReply committedValue. */
        committedValue: Uint8Array;

        /** ReadReply committedDeleted. */
        committedDeleted: boolean;

        /** ReadReply committedProof. */
        committedProof?: (pesto.CommittedTxn.$Properties|null);

        /** ReadReply committedDigest. */
        committedDigest: Uint8Array;

        /** ReadReply preparedVersion. */
        preparedVersion?: (pesto.Ts.$Properties|null);

        /** ReadReply preparedValue. */
        preparedValue: Uint8Array;

        /** ReadReply preparedDeleted. */
        preparedDeleted: boolean;

        /** ReadReply preparedDigest. */
        preparedDigest: Uint8Array;

        /**
         * Encodes the specified ReadReply message. Does not implicitly {@link pesto.ReadReply.verify|verify} messages.
         * @param message ReadReply message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.ReadReply.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a ReadReply message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.ReadReply & pesto.ReadReply.$Shape} ReadReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.ReadReply & pesto.ReadReply.$Shape;

        /**
         * Gets the type url for ReadReply
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace ReadReply {

        /** Properties of a ReadReply. */
        interface $Properties {

            /** ReadReply req */
            req?: (number|null);

            /** ReadReply key */
            key?: (Uint8Array|null);

            /** ReadReply committedVersion */
            committedVersion?: (pesto.Ts.$Properties|null);

            /** ReadReply committedValue */
            committedValue?: (Uint8Array|null);

            /** ReadReply committedDeleted */
            committedDeleted?: (boolean|null);

            /** ReadReply committedProof */
            committedProof?: (pesto.CommittedTxn.$Properties|null);

            /** ReadReply committedDigest */
            committedDigest?: (Uint8Array|null);

            /** ReadReply preparedVersion */
            preparedVersion?: (pesto.Ts.$Properties|null);

            /** ReadReply preparedValue */
            preparedValue?: (Uint8Array|null);

            /** ReadReply preparedDeleted */
            preparedDeleted?: (boolean|null);

            /** ReadReply preparedDigest */
            preparedDigest?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a ReadReply. */
        type $Shape = pesto.ReadReply.$Properties;
    }

    /**
     * Properties of a Prepare.
     * @deprecated Use pesto.Prepare.$Properties instead.
     */
    interface IPrepare extends pesto.Prepare.$Properties {
    }

    /** Represents a Prepare. */
    class Prepare {

        /**
         * Constructs a new Prepare.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Prepare.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Prepare req. */
        req: number;

        /** Prepare txn. */
        txn: Uint8Array;

        /**
         * Encodes the specified Prepare message. Does not implicitly {@link pesto.Prepare.verify|verify} messages.
         * @param message Prepare message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Prepare.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Prepare message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Prepare & pesto.Prepare.$Shape} Prepare
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Prepare & pesto.Prepare.$Shape;

        /**
         * Gets the type url for Prepare
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Prepare {

        /** Properties of a Prepare. */
        interface $Properties {

            /** Prepare req */
            req?: (number|null);

            /** Prepare txn */
            txn?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Prepare. */
        type $Shape = pesto.Prepare.$Properties;
    }

    /**
     * Properties of a PrepareReply.
     * @deprecated Use pesto.PrepareReply.$Properties instead.
     */
    interface IPrepareReply extends pesto.PrepareReply.$Properties {
    }

    /** Represents a PrepareReply. */
    class PrepareReply {

        /**
         * Constructs a new PrepareReply.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.PrepareReply.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** PrepareReply req. */
        req: number;

        /** PrepareReply digest. */
        digest: Uint8Array;

        /** PrepareReply shard. */
        shard: number;

        /** PrepareReply decision. */
        decision: pesto.Decision;

        /** PrepareReply sig. */
        sig?: (pesto.SigProof.$Properties|null);

        /** PrepareReply conflict. */
        conflict?: (pesto.CommittedTxn.$Properties|null);

        /** PrepareReply decided. */
        decided?: (pesto.Writeback.$Properties|null);

        /** PrepareReply conflictPrepared. */
        conflictPrepared: Uint8Array;

        /**
         * Encodes the specified PrepareReply message. Does not implicitly {@link pesto.PrepareReply.verify|verify} messages.
         * @param message PrepareReply message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.PrepareReply.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a PrepareReply message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.PrepareReply & pesto.PrepareReply.$Shape} PrepareReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.PrepareReply & pesto.PrepareReply.$Shape;

        /**
         * Gets the type url for PrepareReply
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace PrepareReply {

        /** Properties of a PrepareReply. */
        interface $Properties {

            /** PrepareReply req */
            req?: (number|null);

            /** PrepareReply digest */
            digest?: (Uint8Array|null);

            /** PrepareReply shard */
            shard?: (number|null);

            /** PrepareReply decision */
            decision?: (pesto.Decision|null);

            /** PrepareReply sig */
            sig?: (pesto.SigProof.$Properties|null);

            /** PrepareReply conflict */
            conflict?: (pesto.CommittedTxn.$Properties|null);

            /** PrepareReply decided */
            decided?: (pesto.Writeback.$Properties|null);

            /** PrepareReply conflictPrepared */
            conflictPrepared?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a PrepareReply. */
        type $Shape = {
          req?: number|null;
          digest?: Uint8Array|null;
          shard?: number|null;
          decision?: pesto.Decision|null;
          sig?: pesto.SigProof.$Shape|null;
          conflict?: pesto.CommittedTxn.$Shape|null;
          decided?: pesto.Writeback.$Shape|null;
          conflictPrepared?: Uint8Array|null;
          $unknowns?: Uint8Array[];
        };
    }

    /**
     * Properties of a Decide.
     * @deprecated Use pesto.Decide.$Properties instead.
     */
    interface IDecide extends pesto.Decide.$Properties {
    }

    /** Represents a Decide. */
    class Decide {

        /**
         * Constructs a new Decide.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Decide.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Decide req. */
        req: number;

        /** Decide digest. */
        digest: Uint8Array;

        /** Decide decision. */
        decision: pesto.Decision;

        /** Decide view. */
        view: number;

        /** Decide logShard. */
        logShard: number;

        /** Decide justification. */
        justification?: (pesto.VoteCert.$Properties|null);

        /** Decide txn. */
        txn: Uint8Array;

        /**
         * Encodes the specified Decide message. Does not implicitly {@link pesto.Decide.verify|verify} messages.
         * @param message Decide message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Decide.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Decide message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Decide & pesto.Decide.$Shape} Decide
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Decide & pesto.Decide.$Shape;

        /**
         * Gets the type url for Decide
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Decide {

        /** Properties of a Decide. */
        interface $Properties {

            /** Decide req */
            req?: (number|null);

            /** Decide digest */
            digest?: (Uint8Array|null);

            /** Decide decision */
            decision?: (pesto.Decision|null);

            /** Decide view */
            view?: (number|null);

            /** Decide logShard */
            logShard?: (number|null);

            /** Decide justification */
            justification?: (pesto.VoteCert.$Properties|null);

            /** Decide txn */
            txn?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Decide. */
        type $Shape = pesto.Decide.$Properties;
    }

    /**
     * Properties of a DecideReply.
     * @deprecated Use pesto.DecideReply.$Properties instead.
     */
    interface IDecideReply extends pesto.DecideReply.$Properties {
    }

    /** Represents a DecideReply. */
    class DecideReply {

        /**
         * Constructs a new DecideReply.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.DecideReply.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** DecideReply req. */
        req: number;

        /** DecideReply digest. */
        digest: Uint8Array;

        /** DecideReply decision. */
        decision: pesto.Decision;

        /** DecideReply view. */
        view: number;

        /** DecideReply logShard. */
        logShard: number;

        /** DecideReply sig. */
        sig?: (pesto.SigProof.$Properties|null);

        /**
         * Encodes the specified DecideReply message. Does not implicitly {@link pesto.DecideReply.verify|verify} messages.
         * @param message DecideReply message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.DecideReply.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a DecideReply message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.DecideReply & pesto.DecideReply.$Shape} DecideReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.DecideReply & pesto.DecideReply.$Shape;

        /**
         * Gets the type url for DecideReply
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace DecideReply {

        /** Properties of a DecideReply. */
        interface $Properties {

            /** DecideReply req */
            req?: (number|null);

            /** DecideReply digest */
            digest?: (Uint8Array|null);

            /** DecideReply decision */
            decision?: (pesto.Decision|null);

            /** DecideReply view */
            view?: (number|null);

            /** DecideReply logShard */
            logShard?: (number|null);

            /** DecideReply sig */
            sig?: (pesto.SigProof.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a DecideReply. */
        type $Shape = pesto.DecideReply.$Properties;
    }

    /**
     * Properties of a Writeback.
     * @deprecated Use pesto.Writeback.$Properties instead.
     */
    interface IWriteback extends pesto.Writeback.$Properties {
    }

    /** Represents a Writeback. */
    class Writeback {

        /**
         * Constructs a new Writeback.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Writeback.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Writeback digest. */
        digest: Uint8Array;

        /** Writeback cert. */
        cert?: (pesto.Certificate.$Properties|null);

        /** Writeback txn. */
        txn: Uint8Array;

        /**
         * Encodes the specified Writeback message. Does not implicitly {@link pesto.Writeback.verify|verify} messages.
         * @param message Writeback message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Writeback.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Writeback message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Writeback & pesto.Writeback.$Shape} Writeback
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Writeback & pesto.Writeback.$Shape;

        /**
         * Gets the type url for Writeback
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Writeback {

        /** Properties of a Writeback. */
        interface $Properties {

            /** Writeback digest */
            digest?: (Uint8Array|null);

            /** Writeback cert */
            cert?: (pesto.Certificate.$Properties|null);

            /** Writeback txn */
            txn?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Writeback. */
        type $Shape = {
          digest?: Uint8Array|null;
          cert?: pesto.Certificate.$Shape|null;
          txn?: Uint8Array|null;
          $unknowns?: Uint8Array[];
        };
    }

    /**
     * Properties of a Relay.
     * @deprecated Use pesto.Relay.$Properties instead.
     */
    interface IRelay extends pesto.Relay.$Properties {
    }

    /** Represents a Relay. */
    class Relay {

        /**
         * Constructs a new Relay.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Relay.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Relay req. */
        req: number;

        /** Relay waitingDigest. */
        waitingDigest: Uint8Array;

        /** Relay txn. */
        txn: Uint8Array;

        /**
         * Encodes the specified Relay message. Does not implicitly {@link pesto.Relay.verify|verify} messages.
         * @param message Relay message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Relay.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Relay message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Relay & pesto.Relay.$Shape} Relay
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Relay & pesto.Relay.$Shape;

        /**
         * Gets the type url for Relay
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Relay {

        /** Properties of a Relay. */
        interface $Properties {

            /** Relay req */
            req?: (number|null);

            /** Relay waitingDigest */
            waitingDigest?: (Uint8Array|null);

            /** Relay txn */
            txn?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Relay. */
        type $Shape = pesto.Relay.$Properties;
    }

    /**
     * Properties of an Elect.
     * @deprecated Use pesto.Elect.$Properties instead.
     */
    interface IElect extends pesto.Elect.$Properties {
    }

    /** Represents an Elect. */
    class Elect {

        /**
         * Constructs a new Elect.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Elect.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Elect req. */
        req: number;

        /** Elect view. */
        view: number;

        /** Elect decide. */
        decide?: (pesto.Decide.$Properties|null);

        /**
         * Encodes the specified Elect message. Does not implicitly {@link pesto.Elect.verify|verify} messages.
         * @param message Elect message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Elect.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an Elect message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Elect & pesto.Elect.$Shape} Elect
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Elect & pesto.Elect.$Shape;

        /**
         * Gets the type url for Elect
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Elect {

        /** Properties of an Elect. */
        interface $Properties {

            /** Elect req */
            req?: (number|null);

            /** Elect view */
            view?: (number|null);

            /** Elect decide */
            decide?: (pesto.Decide.$Properties|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of an Elect. */
        type $Shape = pesto.Elect.$Properties;
    }

    /**
     * Properties of a DecisionFb.
     * @deprecated Use pesto.DecisionFb.$Properties instead.
     */
    interface IDecisionFb extends pesto.DecisionFb.$Properties {
    }

    /** Represents a DecisionFb. */
    class DecisionFb {

        /**
         * Constructs a new DecisionFb.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.DecisionFb.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** DecisionFb req. */
        req: number;

        /** DecisionFb digest. */
        digest: Uint8Array;

        /** DecisionFb decision. */
        decision: pesto.Decision;

        /** DecisionFb view. */
        view: number;

        /** DecisionFb logShard. */
        logShard: number;

        /** DecisionFb elects. */
        elects: pesto.SigProof.$Properties[];

        /** DecisionFb txn. */
        txn: Uint8Array;

        /**
         * Encodes the specified DecisionFb message. Does not implicitly {@link pesto.DecisionFb.verify|verify} messages.
         * @param message DecisionFb message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.DecisionFb.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a DecisionFb message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.DecisionFb & pesto.DecisionFb.$Shape} DecisionFb
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.DecisionFb & pesto.DecisionFb.$Shape;

        /**
         * Gets the type url for DecisionFb
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace DecisionFb {

        /** Properties of a DecisionFb. */
        interface $Properties {

            /** DecisionFb req */
            req?: (number|null);

            /** DecisionFb digest */
            digest?: (Uint8Array|null);

            /** DecisionFb decision */
            decision?: (pesto.Decision|null);

            /** DecisionFb view */
            view?: (number|null);

            /** DecisionFb logShard */
            logShard?: (number|null);

            /** DecisionFb elects */
            elects?: (pesto.SigProof.$Properties[]|null);

            /** DecisionFb txn */
            txn?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a DecisionFb. */
        type $Shape = pesto.DecisionFb.$Properties;
    }

    /**
     * Properties of a Query.
     * @deprecated Use pesto.Query.$Properties instead.
     */
    interface IQuery extends pesto.Query.$Properties {
    }

    /** Represents a Query. */
    class Query {

        /**
         * Constructs a new Query.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Query.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Query req. */
        req: number;

        /** Query ts. */
        ts?: (pesto.Ts.$Properties|null);

        /** Query sql. */
        sql: string;

        /** Query params. */
        params: Uint8Array;

        /** Query ownWrites. */
        ownWrites: pesto.WriteEntry.$Properties[];

        /** Query recon. */
        recon: boolean;

        /** Query retry. */
        retry: number;

        /** Query snapshot. */
        snapshot: pesto.SnapshotEntry.$Properties[];

        /** Query digestOnly. */
        digestOnly: boolean;

        /** Query timeZone. */
        timeZone: string;

        /**
         * Encodes the specified Query message. Does not implicitly {@link pesto.Query.verify|verify} messages.
         * @param message Query message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Query.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Query message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Query & pesto.Query.$Shape} Query
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Query & pesto.Query.$Shape;

        /**
         * Gets the type url for Query
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Query {

        /** Properties of a Query. */
        interface $Properties {

            /** Query req */
            req?: (number|null);

            /** Query ts */
            ts?: (pesto.Ts.$Properties|null);

            /** Query sql */
            sql?: (string|null);

            /** Query params */
            params?: (Uint8Array|null);

            /** Query ownWrites */
            ownWrites?: (pesto.WriteEntry.$Properties[]|null);

            /** Query recon */
            recon?: (boolean|null);

            /** Query retry */
            retry?: (number|null);

            /** Query snapshot */
            snapshot?: (pesto.SnapshotEntry.$Properties[]|null);

            /** Query digestOnly */
            digestOnly?: (boolean|null);

            /** Query timeZone */
            timeZone?: (string|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Query. */
        type $Shape = pesto.Query.$Properties;
    }

    /**
     * Properties of a SnapshotEntry.
     * @deprecated Use pesto.SnapshotEntry.$Properties instead.
     */
    interface ISnapshotEntry extends pesto.SnapshotEntry.$Properties {
    }

    /** Represents a SnapshotEntry. */
    class SnapshotEntry {

        /**
         * Constructs a new SnapshotEntry.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.SnapshotEntry.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** SnapshotEntry digest. */
        digest: Uint8Array;

        /** SnapshotEntry holders. */
        holders: number[];

        /**
         * Encodes the specified SnapshotEntry message. Does not implicitly {@link pesto.SnapshotEntry.verify|verify} messages.
         * @param message SnapshotEntry message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.SnapshotEntry.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a SnapshotEntry message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.SnapshotEntry & pesto.SnapshotEntry.$Shape} SnapshotEntry
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.SnapshotEntry & pesto.SnapshotEntry.$Shape;

        /**
         * Gets the type url for SnapshotEntry
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace SnapshotEntry {

        /** Properties of a SnapshotEntry. */
        interface $Properties {

            /** SnapshotEntry digest */
            digest?: (Uint8Array|null);

            /** SnapshotEntry holders */
            holders?: (number[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a SnapshotEntry. */
        type $Shape = pesto.SnapshotEntry.$Properties;
    }

    /**
     * Properties of a QueryReply.
     * @deprecated Use pesto.QueryReply.$Properties instead.
     */
    interface IQueryReply extends pesto.QueryReply.$Properties {
    }

    /** Represents a QueryReply. */
    class QueryReply {

        /**
         * Constructs a new QueryReply.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.QueryReply.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** QueryReply req. */
        req: number;

        /** QueryReply retry. */
        retry: number;

        /** QueryReply reads. */
        reads: pesto.ReadEntry.$Properties[];

        /** QueryReply result. */
        result: Uint8Array;

        /** QueryReply predicates. */
        predicates: pesto.Predicate.$Properties[];

        /** QueryReply deps. */
        deps: pesto.Dependency.$Properties[];

        /** QueryReply snapshotCommitted. */
        snapshotCommitted: Uint8Array[];

        /** QueryReply snapshotPrepared. */
        snapshotPrepared: Uint8Array[];

        /** QueryReply bodyDigest. */
        bodyDigest: Uint8Array;

        /**
         * Encodes the specified QueryReply message. Does not implicitly {@link pesto.QueryReply.verify|verify} messages.
         * @param message QueryReply message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.QueryReply.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a QueryReply message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.QueryReply & pesto.QueryReply.$Shape} QueryReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.QueryReply & pesto.QueryReply.$Shape;

        /**
         * Gets the type url for QueryReply
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace QueryReply {

        /** Properties of a QueryReply. */
        interface $Properties {

            /** QueryReply req */
            req?: (number|null);

            /** QueryReply retry */
            retry?: (number|null);

            /** QueryReply reads */
            reads?: (pesto.ReadEntry.$Properties[]|null);

            /** QueryReply result */
            result?: (Uint8Array|null);

            /** QueryReply predicates */
            predicates?: (pesto.Predicate.$Properties[]|null);

            /** QueryReply deps */
            deps?: (pesto.Dependency.$Properties[]|null);

            /** QueryReply snapshotCommitted */
            snapshotCommitted?: (Uint8Array[]|null);

            /** QueryReply snapshotPrepared */
            snapshotPrepared?: (Uint8Array[]|null);

            /** QueryReply bodyDigest */
            bodyDigest?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a QueryReply. */
        type $Shape = pesto.QueryReply.$Properties;
    }

    /**
     * Properties of a Fetch.
     * @deprecated Use pesto.Fetch.$Properties instead.
     */
    interface IFetch extends pesto.Fetch.$Properties {
    }

    /** Represents a Fetch. */
    class Fetch {

        /**
         * Constructs a new Fetch.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Fetch.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Fetch req. */
        req: number;

        /** Fetch digests. */
        digests: Uint8Array[];

        /**
         * Encodes the specified Fetch message. Does not implicitly {@link pesto.Fetch.verify|verify} messages.
         * @param message Fetch message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Fetch.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a Fetch message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Fetch & pesto.Fetch.$Shape} Fetch
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Fetch & pesto.Fetch.$Shape;

        /**
         * Gets the type url for Fetch
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Fetch {

        /** Properties of a Fetch. */
        interface $Properties {

            /** Fetch req */
            req?: (number|null);

            /** Fetch digests */
            digests?: (Uint8Array[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a Fetch. */
        type $Shape = pesto.Fetch.$Properties;
    }

    /**
     * Properties of a FetchReply.
     * @deprecated Use pesto.FetchReply.$Properties instead.
     */
    interface IFetchReply extends pesto.FetchReply.$Properties {
    }

    /** Represents a FetchReply. */
    class FetchReply {

        /**
         * Constructs a new FetchReply.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.FetchReply.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** FetchReply req. */
        req: number;

        /** FetchReply decided. */
        decided: pesto.Writeback.$Properties[];

        /** FetchReply prepared. */
        prepared: Uint8Array[];

        /**
         * Encodes the specified FetchReply message. Does not implicitly {@link pesto.FetchReply.verify|verify} messages.
         * @param message FetchReply message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.FetchReply.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a FetchReply message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.FetchReply & pesto.FetchReply.$Shape} FetchReply
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.FetchReply & pesto.FetchReply.$Shape;

        /**
         * Gets the type url for FetchReply
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace FetchReply {

        /** Properties of a FetchReply. */
        interface $Properties {

            /** FetchReply req */
            req?: (number|null);

            /** FetchReply decided */
            decided?: (pesto.Writeback.$Properties[]|null);

            /** FetchReply prepared */
            prepared?: (Uint8Array[]|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a FetchReply. */
        type $Shape = {
          req?: number|null;
          decided?: pesto.Writeback.$Shape[]|null;
          prepared?: Uint8Array[]|null;
          $unknowns?: Uint8Array[];
        };
    }

    /**
     * Properties of an Envelope.
     * @deprecated Use pesto.Envelope.$Properties instead.
     */
    interface IEnvelope extends pesto.Envelope.$Properties {
    }

    /** Represents an Envelope. */
    class Envelope {

        /**
         * Constructs a new Envelope.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.Envelope.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** Envelope read. */
        read?: (pesto.ReadRequest.$Properties|null);

        /** Envelope readReply. */
        readReply?: (pesto.ReadReply.$Properties|null);

        /** Envelope prepare. */
        prepare?: (pesto.Prepare.$Properties|null);

        /** Envelope prepareReply. */
        prepareReply?: (pesto.PrepareReply.$Properties|null);

        /** Envelope decide. */
        decide?: (pesto.Decide.$Properties|null);

        /** Envelope decideReply. */
        decideReply?: (pesto.DecideReply.$Properties|null);

        /** Envelope writeback. */
        writeback?: (pesto.Writeback.$Properties|null);

        /** Envelope relay. */
        relay?: (pesto.Relay.$Properties|null);

        /** Envelope elect. */
        elect?: (pesto.Elect.$Properties|null);

        /** Envelope electReply. */
        electReply?: (pesto.DecideReply.$Properties|null);

        /** Envelope decisionFb. */
        decisionFb?: (pesto.DecisionFb.$Properties|null);

        /** Envelope query. */
        query?: (pesto.Query.$Properties|null);

        /** Envelope queryReply. */
        queryReply?: (pesto.QueryReply.$Properties|null);

        /** Envelope fetch. */
        fetch?: (pesto.Fetch.$Properties|null);

        /** Envelope fetchReply. */
        fetchReply?: (pesto.FetchReply.$Properties|null);

        /** Envelope body. */
        body?: ("read"|"readReply"|"prepare"|"prepareReply"|"decide"|"decideReply"|"writeback"|"relay"|"elect"|"electReply"|"decisionFb"|"query"|"queryReply"|"fetch"|"fetchReply");

        /**
         * Encodes the specified Envelope message. Does not implicitly {@link pesto.Envelope.verify|verify} messages.
         * @param message Envelope message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.Envelope.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes an Envelope message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.Envelope & pesto.Envelope.$Shape} Envelope
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.Envelope & pesto.Envelope.$Shape;

        /**
         * Gets the type url for Envelope
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace Envelope {

        /** Properties of an Envelope. */
        interface $Properties {

            /** Envelope read */
            read?: (pesto.ReadRequest.$Properties|null);

            /** Envelope readReply */
            readReply?: (pesto.ReadReply.$Properties|null);

            /** Envelope prepare */
            prepare?: (pesto.Prepare.$Properties|null);

            /** Envelope prepareReply */
            prepareReply?: (pesto.PrepareReply.$Properties|null);

            /** Envelope decide */
            decide?: (pesto.Decide.$Properties|null);

            /** Envelope decideReply */
            decideReply?: (pesto.DecideReply.$Properties|null);

            /** Envelope writeback */
            writeback?: (pesto.Writeback.$Properties|null);

            /** Envelope relay */
            relay?: (pesto.Relay.$Properties|null);

            /** Envelope elect */
            elect?: (pesto.Elect.$Properties|null);

            /** Envelope electReply */
            electReply?: (pesto.DecideReply.$Properties|null);

            /** Envelope decisionFb */
            decisionFb?: (pesto.DecisionFb.$Properties|null);

            /** Envelope query */
            query?: (pesto.Query.$Properties|null);

            /** Envelope queryReply */
            queryReply?: (pesto.QueryReply.$Properties|null);

            /** Envelope fetch */
            fetch?: (pesto.Fetch.$Properties|null);

            /** Envelope fetchReply */
            fetchReply?: (pesto.FetchReply.$Properties|null);

            /** Envelope body */
            body?: ("read"|"readReply"|"prepare"|"prepareReply"|"decide"|"decideReply"|"writeback"|"relay"|"elect"|"electReply"|"decisionFb"|"query"|"queryReply"|"fetch"|"fetchReply");

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Narrowed shape of an Envelope. */
        type $Shape = {
          read?: pesto.ReadRequest.$Shape|null;
          readReply?: pesto.ReadReply.$Shape|null;
          prepare?: pesto.Prepare.$Shape|null;
          prepareReply?: pesto.PrepareReply.$Shape|null;
          decide?: pesto.Decide.$Shape|null;
          decideReply?: pesto.DecideReply.$Shape|null;
          writeback?: pesto.Writeback.$Shape|null;
          relay?: pesto.Relay.$Shape|null;
          elect?: pesto.Elect.$Shape|null;
          electReply?: pesto.DecideReply.$Shape|null;
          decisionFb?: pesto.DecisionFb.$Shape|null;
          query?: pesto.Query.$Shape|null;
          queryReply?: pesto.QueryReply.$Shape|null;
          fetch?: pesto.Fetch.$Shape|null;
          fetchReply?: pesto.FetchReply.$Shape|null;
          $unknowns?: Uint8Array[];
        } & (
          ({ body?: undefined; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "read"; read: pesto.ReadRequest.$Shape; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "readReply"; read?: null; readReply: pesto.ReadReply.$Shape; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "prepare"; read?: null; readReply?: null; prepare: pesto.Prepare.$Shape; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "prepareReply"; read?: null; readReply?: null; prepare?: null; prepareReply: pesto.PrepareReply.$Shape; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "decide"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide: pesto.Decide.$Shape; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "decideReply"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply: pesto.DecideReply.$Shape; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "writeback"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback: pesto.Writeback.$Shape; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "relay"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay: pesto.Relay.$Shape; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "elect"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect: pesto.Elect.$Shape; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "electReply"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply: pesto.DecideReply.$Shape; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "decisionFb"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb: pesto.DecisionFb.$Shape; query?: null; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "query"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query: pesto.Query.$Shape; queryReply?: null; fetch?: null; fetchReply?: null }|{ body?: "queryReply"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply: pesto.QueryReply.$Shape; fetch?: null; fetchReply?: null }|{ body?: "fetch"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch: pesto.Fetch.$Shape; fetchReply?: null }|{ body?: "fetchReply"; read?: null; readReply?: null; prepare?: null; prepareReply?: null; decide?: null; decideReply?: null; writeback?: null; relay?: null; elect?: null; electReply?: null; decisionFb?: null; query?: null; queryReply?: null; fetch?: null; fetchReply: pesto.FetchReply.$Shape })
        );
    }

    /**
     * Properties of a LogRecord.
     * @deprecated Use pesto.LogRecord.$Properties instead.
     */
    interface ILogRecord extends pesto.LogRecord.$Properties {
    }

    /** Represents a LogRecord. */
    class LogRecord {

        /**
         * Constructs a new LogRecord.
         * @param [properties] Properties to set
         */
        constructor(properties?: pesto.LogRecord.$Properties);

        /** Unknown fields preserved while decoding when enabled */
        $unknowns?: Uint8Array[];

        /** LogRecord kind. */
        kind: number;

        /** LogRecord txn. */
        txn: Uint8Array;

        /** LogRecord decision. */
        decision: pesto.Decision;

        /** LogRecord view. */
        view: number;

        /** LogRecord logShard. */
        logShard: number;

        /** LogRecord message. */
        message: Uint8Array;

        /**
         * Encodes the specified LogRecord message. Does not implicitly {@link pesto.LogRecord.verify|verify} messages.
         * @param message LogRecord message or plain object to encode
         * @param [writer] Writer to encode to
         * @returns Writer
         */
        static encode(message: pesto.LogRecord.$Properties, writer?: $protobuf.Writer): $protobuf.Writer;

        /**
         * Decodes a LogRecord message from the specified reader or buffer.
         * @param reader Reader or buffer to decode from
         * @param [length] Message length if known beforehand
         * @returns {pesto.LogRecord & pesto.LogRecord.$Shape} LogRecord
         * @throws {Error} If the payload is not a reader or valid buffer
         * @throws {$protobuf.util.ProtocolError} If required fields are missing
         */
        static decode(reader: ($protobuf.Reader|Uint8Array), length?: number): pesto.LogRecord & pesto.LogRecord.$Shape;

        /**
         * Gets the type url for LogRecord
         * @param [prefix] Custom type url prefix, defaults to `"type.googleapis.com"`
         * @returns The type url
         */
        static getTypeUrl(prefix?: string): string;
    }

    namespace LogRecord {

        /** Properties of a LogRecord. */
        interface $Properties {

            /** LogRecord kind */
            kind?: (number|null);

            /** LogRecord txn */
            txn?: (Uint8Array|null);

            /** LogRecord decision */
            decision?: (pesto.Decision|null);

            /** LogRecord view */
            view?: (number|null);

            /** LogRecord logShard */
            logShard?: (number|null);

            /** LogRecord message */
            message?: (Uint8Array|null);

            /** Unknown fields preserved while decoding when enabled */
            $unknowns?: Uint8Array[];
        }

        /** Shape of a LogRecord. */
        type $Shape = pesto.LogRecord.$Properties;
    }
}
