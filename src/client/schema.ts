// Generated from the OpenAPI document by scripts/gen-client-types.ts (npm run client:types).
// Do not edit: change src/api/openapi/document.ts and run it again.
export interface paths {
    "/assets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Uploads a private PNG or JPEG (5 MiB, 4096 px a side, 8 MP; 200 images and 100 MiB per account). */
        post: operations["uploadAsset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Extension: batches of the key mode, newest first. */
        get: operations["listBatches"];
        put?: never;
        /** Extension: queues up to 10,000 documents of one template at once (JSON rows or CSV); the batch is one unfinished job. Body up to 32 MiB. */
        post: operations["createBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Extension: a batch, with its rows counted by status. */
        get: operations["getBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Extension: cancels the rows not yet started, uncharged; rows already running finish. */
        post: operations["cancelBatch"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Extension: one ZIP of every completed row's PDF in row order (entries `00042.pdf`, or `00042-<metadata value>.pdf` with `?name=`), streamed. */
        get: operations["downloadBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{id}/merged": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Extension: for a batch sent with `merge: true`, every completed row's PDF (or envelope, with `?part=envelope`) as one PDF in row order, merged as it is sent (chunked: no Content-Length). */
        get: operations["mergeBatch"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/batches/{id}/rows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Extension: its rows in row order, each its job and its seed. */
        get: operations["listBatchRows"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fonts": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Metadata of shared and personal fonts (never files, URLs or glyphs). */
        get: operations["listFonts"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/fonts/{fontId}/file": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** An extension: a font the key's account built from a hand, as a file for other software. Its drawings are reachable there: salt (all), ss01 and ss02 (each letter's second and third drawing), and calt and ss03 (a rotation: a letter after one in its first drawing takes its second, then its third). Another account's, a shared or an uploaded font: 404. */
        get: operations["downloadFontFile"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Jobs of the key mode, newest first (extension). */
        get: operations["listGenerations"];
        put?: never;
        /** Queues a PDF job (exactly one of text, data, content). */
        post: operations["createGeneration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A job. */
        get: operations["getGeneration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generations/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Cancels a queued or processing job without charge. */
        post: operations["cancelGeneration"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generations/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The PDF of a completed job (owner key only). */
        get: operations["downloadGeneration"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/generations/{id}/preview": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The watermarked images of a completed preview job. */
        get: operations["getPreview"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/previews": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Queues a watermarked preview (4 pages at most; 3 new per minute per account). */
        post: operations["createPreview"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/renders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** One SVG or PNG image (or a pen plotter's strokes, extension), synchronously. */
        post: operations["render"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** The caller's templates (key mode), newest first. */
        get: operations["listTemplates"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/templates/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** A template: the builder model (v2) or settings and fontIds (legacy v1). */
        get: operations["getTemplate"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /** Counts and sheets over a UTC date range, and the balance, for the key mode. */
        get: operations["getUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface webhooks {
    "batch.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Every row of a batch ended (extension): its counts, pages, sheets and the ZIP's downloadUrl are in data.batch. A cancelled batch sends none. */
        post: operations["webhook_batch_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "generation.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A PDF job completed: its pages, sheets and downloadUrl are in data.generation. */
        post: operations["webhook_generation_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "generation.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A PDF job failed (GENERATION_FAILED or INSUFFICIENT_BALANCE in data.generation.error); nothing was charged. */
        post: operations["webhook_generation_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "preview.completed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A preview completed: its images are at data.generation.previewUrl. */
        post: operations["webhook_preview_completed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "preview.failed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** A preview failed. */
        post: operations["webhook_preview_failed"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "webhook.test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /** Sent on demand from the dashboard's webhook page to one endpoint, to see deliveries arrive; it names the endpoint and no job. */
        post: operations["webhook_webhook_test"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export interface components {
    schemas: {
        Asset: {
            bytes: number;
            /** Format: date-time */
            createdAt: string;
            height: number;
            id: string;
            /** @enum {string} */
            type: "image/png" | "image/jpeg";
            width: number;
        };
        Balance: {
            /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
            availableSheets: number;
            /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
            extraSheets: number;
            /** @enum {string} */
            mode: "live" | "test";
            subscription: {
                name: string;
                pagesPerDay: number;
                periodDays: number | null;
                /** Format: date-time */
                periodEnd: string;
                /** Format: date-time */
                periodStart: string;
                plan: string;
                premiumFonts: boolean;
                renderAccess: boolean;
                /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
                sheetsLeft: number;
                /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
                sheetsPerPeriod: number;
                /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
                sheetsUsed: number;
            };
            usage: {
                pagesThisPeriod: number;
                pagesToday: number;
            };
        };
        Batch: {
            /** Format: date-time */
            cancelledAt?: string;
            /** Format: date-time */
            completedAt?: string;
            /** Format: date-time */
            createdAt: string;
            /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
            creditsSpent: number;
            /** @description Once the batch ended with some row completed: the ZIP of their PDFs. */
            downloadUrl?: string;
            /** @description With an envelope template: each row's envelope by status. */
            envelopes?: {
                cancelled: number;
                completed: number;
                failed: number;
                processing: number;
                queued: number;
                total: number;
            };
            envelopeTemplateId?: string;
            /**
             * Format: date-time
             * @description When the first completed row's PDF expires (7 days after it completed).
             */
            expiresAt?: string;
            id: string;
            /** @description Present (true) when the batch was sent with `merge: true`. */
            merge?: boolean;
            /** @description With `merge: true`, once the batch ended with some row completed: their PDFs as one. */
            mergedUrl?: string;
            metadata: components["schemas"]["Metadata"];
            /** @description Pages of the completed documents so far, envelopes included. */
            pages: number;
            /** @description Its rows (each row's letter) by status. */
            rows: {
                cancelled: number;
                completed: number;
                failed: number;
                processing: number;
                queued: number;
                total: number;
            };
            rowsUrl: string;
            /**
             * @description `completed` once every row ended, even where some failed; `cancelled` after a cancel.
             * @enum {string}
             */
            status: "queued" | "processing" | "completed" | "cancelled";
            templateId: string;
            /** Format: date-time */
            updatedAt: string;
        };
        BatchEnvelope: {
            /** @description Extension: the batch this job is a row of. */
            batchId?: string;
            /** Format: date-time */
            cancelledAt?: string;
            /** Format: date-time */
            completedAt?: string;
            /** Format: date-time */
            createdAt: string;
            /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
            creditsSpent?: number;
            /** @description Relative (/api/v1/generations/{id}/download) or an absolute http(s) URL. */
            downloadUrl?: string;
            error?: {
                /** @enum {string} */
                code: "GENERATION_FAILED" | "INSUFFICIENT_BALANCE";
                message: string;
            };
            /** Format: date-time */
            expiresAt?: string;
            id: string;
            /** @enum {string} */
            kind: "pdf" | "preview";
            metadata: components["schemas"]["Metadata"];
            pages?: number;
            /**
             * @description Extension: which of its row's documents a batch's job is.
             * @enum {string}
             */
            part?: "letter" | "envelope";
            /** @description A completed preview: where its images are (/api/v1/generations/{id}/preview). Extension. */
            previewUrl?: string;
            /** @description Extension: a batch row's index in its batch, from 0. */
            row?: number;
            /** @description The hand's seed it is written with. */
            seed: number;
            /** Format: date-time */
            startedAt?: string;
            /** @enum {string} */
            status: "queued" | "processing" | "completed" | "failed" | "cancelled";
            templateId: string;
        };
        BatchEvent: {
            /** Format: date-time */
            createdAt: string;
            data: {
                batch: components["schemas"]["Batch"];
            };
            id: string;
            /** @constant */
            type: "batch.completed";
        };
        BatchList: {
            data: components["schemas"]["Batch"][];
            hasMore: boolean;
            nextCursor: string | null;
        };
        BatchRequest: {
            /** @description CSV text (RFC 4180): a header row, then 1-10,000 rows. Columns: `text` (simple templates); data fields by path (`name`, `address.city`, `items[0]`, `lines[2].price`, `logo.assetId`); `seed`; `metadata.KEY`. An empty cell leaves its field out. */
            csv?: string;
            /** @description An envelope for every row, written in this template (an envelope size such as DL, in landscape); each row then carries `envelope` (CSV: columns `envelope.<field>`). Each envelope is a document of its own, billed by its size. */
            envelope?: {
                templateId: string;
            };
            /** @description true: once the batch ended, `GET /batches/{id}/merged` gives every completed row as one PDF in row order. Default false. */
            merge?: boolean;
            metadata?: components["schemas"]["Metadata"];
            /** @description true: every row's own end is a webhook event too (generation.completed, generation.failed); batch.completed comes either way. Default false. */
            rowEvents?: boolean;
            /** @description 1-10,000 rows, each what one generation of the template takes. */
            rows?: components["schemas"]["BatchRowRequest"][];
            templateId: string;
        } & (unknown | unknown);
        /** @description A row: its letter's job (with batchId, row and part), its seed, and its envelope's job when it has one. */
        BatchRow: {
            /** @description Extension: the batch this job is a row of. */
            batchId?: string;
            /** Format: date-time */
            cancelledAt?: string;
            /** Format: date-time */
            completedAt?: string;
            /** Format: date-time */
            createdAt: string;
            /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
            creditsSpent?: number;
            /** @description Relative (/api/v1/generations/{id}/download) or an absolute http(s) URL. */
            downloadUrl?: string;
            envelope?: components["schemas"]["BatchEnvelope"];
            error?: {
                /** @enum {string} */
                code: "GENERATION_FAILED" | "INSUFFICIENT_BALANCE";
                message: string;
            };
            /** Format: date-time */
            expiresAt?: string;
            id: string;
            /** @enum {string} */
            kind: "pdf" | "preview";
            metadata: components["schemas"]["Metadata"];
            pages?: number;
            /**
             * @description Extension: which of its row's documents a batch's job is.
             * @enum {string}
             */
            part?: "letter" | "envelope";
            /** @description A completed preview: where its images are (/api/v1/generations/{id}/preview). Extension. */
            previewUrl?: string;
            /** @description Extension: a batch row's index in its batch, from 0. */
            row?: number;
            /** @description The hand's seed it is written with. */
            seed: number;
            /** Format: date-time */
            startedAt?: string;
            /** @enum {string} */
            status: "queued" | "processing" | "completed" | "failed" | "cancelled";
            templateId: string;
        };
        BatchRowList: {
            data: components["schemas"]["BatchRow"][];
            hasMore: boolean;
            nextCursor: string | null;
        };
        BatchRowRequest: {
            content?: components["schemas"]["ContentBlock"][];
            data?: {
                [key: string]: unknown;
            };
            /** @description With a batch's envelope template: the envelope's input (what that template takes). */
            envelope?: {
                content?: components["schemas"]["ContentBlock"][];
                data?: {
                    [key: string]: unknown;
                };
                text?: string;
            };
            metadata?: components["schemas"]["Metadata"];
            /** @description The hand's seed for this row; by default one derived from the batch and the row, so the same row always draws the same. */
            seed?: number;
            text?: string;
        } & (unknown | unknown | unknown);
        Block: {
            key?: string;
            /** @default false */
            optional: boolean;
            /** @default false */
            static: boolean;
            style?: {
                /** @enum {string} */
                align?: "left" | "right" | "center" | "justify";
                color?: string;
                fontSize?: number;
            };
            text?: string;
            /** @constant */
            type: "text";
        } | {
            key?: string;
            /** @default 1 */
            level: number;
            /** @default false */
            optional: boolean;
            /** @default false */
            static: boolean;
            style?: {
                /** @enum {string} */
                align?: "left" | "right" | "center" | "justify";
                color?: string;
                fontSize?: number;
            };
            text?: string;
            /** @constant */
            type: "heading";
        } | {
            items?: string[];
            key?: string;
            /** @default false */
            optional: boolean;
            /** @default false */
            ordered: boolean;
            /** @default false */
            static: boolean;
            style?: {
                /** @enum {string} */
                align?: "left" | "right" | "center" | "justify";
                color?: string;
                fontSize?: number;
            };
            /** @constant */
            type: "list";
        } | {
            /**
             * @default left
             * @enum {string}
             */
            align: "left" | "center" | "right";
            assetId?: string;
            key?: string;
            /** @default false */
            optional: boolean;
            /** @default false */
            static: boolean;
            /** @constant */
            type: "image";
            /** @default 100 */
            width: number;
        } | {
            columns: {
                key: string;
                /** @default  */
                title: string;
                width?: number;
            }[];
            key?: string;
            /** @default false */
            optional: boolean;
            rows?: {
                [key: string]: string;
            }[];
            /** @default false */
            static: boolean;
            /** @constant */
            type: "table";
        } | {
            columns: {
                blocks: ({
                    key?: string;
                    /** @default false */
                    optional: boolean;
                    /** @default false */
                    static: boolean;
                    style?: {
                        /** @enum {string} */
                        align?: "left" | "right" | "center" | "justify";
                        color?: string;
                        fontSize?: number;
                    };
                    text?: string;
                    /** @constant */
                    type: "text";
                } | {
                    key?: string;
                    /** @default 1 */
                    level: number;
                    /** @default false */
                    optional: boolean;
                    /** @default false */
                    static: boolean;
                    style?: {
                        /** @enum {string} */
                        align?: "left" | "right" | "center" | "justify";
                        color?: string;
                        fontSize?: number;
                    };
                    text?: string;
                    /** @constant */
                    type: "heading";
                } | {
                    items?: string[];
                    key?: string;
                    /** @default false */
                    optional: boolean;
                    /** @default false */
                    ordered: boolean;
                    /** @default false */
                    static: boolean;
                    style?: {
                        /** @enum {string} */
                        align?: "left" | "right" | "center" | "justify";
                        color?: string;
                        fontSize?: number;
                    };
                    /** @constant */
                    type: "list";
                } | {
                    /**
                     * @default left
                     * @enum {string}
                     */
                    align: "left" | "center" | "right";
                    assetId?: string;
                    key?: string;
                    /** @default false */
                    optional: boolean;
                    /** @default false */
                    static: boolean;
                    /** @constant */
                    type: "image";
                    /** @default 100 */
                    width: number;
                } | {
                    columns: {
                        key: string;
                        /** @default  */
                        title: string;
                        width?: number;
                    }[];
                    key?: string;
                    /** @default false */
                    optional: boolean;
                    rows?: {
                        [key: string]: string;
                    }[];
                    /** @default false */
                    static: boolean;
                    /** @constant */
                    type: "table";
                } | {
                    /** @constant */
                    type: "divider";
                } | {
                    height: number;
                    /** @constant */
                    type: "spacer";
                })[];
                width?: number;
            }[];
            /** @default 12 */
            gap: number;
            /** @constant */
            type: "columns";
        } | {
            /** @constant */
            type: "divider";
        } | {
            height: number;
            /** @constant */
            type: "spacer";
        } | {
            /** @constant */
            type: "pageBreak";
        };
        ContentBlock: {
            text: string;
            /** @constant */
            type: "paragraph";
        } | {
            level: number;
            text: string;
            /** @constant */
            type: "heading";
        } | {
            items: string[];
            /** @constant */
            type: "bulletList";
        } | {
            items: string[];
            start?: number;
            /** @constant */
            type: "orderedList";
        } | {
            /** @enum {string} */
            align?: "left" | "center" | "right";
            assetId: string;
            /** @constant */
            type: "image";
            width?: string;
        } | {
            rows: string[][];
            /** @constant */
            type: "table";
        } | {
            /** @constant */
            type: "divider";
        } | {
            height: number;
            /** @constant */
            type: "spacer";
        } | {
            columns: {
                content: ({
                    text: string;
                    /** @constant */
                    type: "paragraph";
                } | {
                    level: number;
                    text: string;
                    /** @constant */
                    type: "heading";
                } | {
                    items: string[];
                    /** @constant */
                    type: "bulletList";
                } | {
                    items: string[];
                    start?: number;
                    /** @constant */
                    type: "orderedList";
                } | {
                    /** @enum {string} */
                    align?: "left" | "center" | "right";
                    assetId: string;
                    /** @constant */
                    type: "image";
                    width?: string;
                } | {
                    rows: string[][];
                    /** @constant */
                    type: "table";
                } | {
                    /** @constant */
                    type: "divider";
                } | {
                    height: number;
                    /** @constant */
                    type: "spacer";
                })[];
                width?: number;
            }[];
            /** @constant */
            type: "columns";
        } | {
            /** @constant */
            type: "pageBreak";
        };
        Error: {
            error: {
                /** @enum {string} */
                code: "INVALID_REQUEST" | "INVALID_TEMPLATE_DATA" | "INVALID_API_KEY" | "API_KEY_REVOKED" | "INSUFFICIENT_BALANCE" | "RENDER_ACCESS_DENIED" | "FONT_ACCESS_DENIED" | "TEMPLATE_NOT_FOUND" | "GENERATION_NOT_FOUND" | "ENDPOINT_NOT_FOUND" | "BATCH_NOT_FOUND" | "FONT_NOT_FOUND" | "GENERATION_NOT_READY" | "PREVIEW_ONLY" | "IDEMPOTENCY_KEY_IN_USE" | "GENERATION_EXPIRED" | "RATE_LIMIT_EXCEEDED" | "INTERNAL_ERROR" | "RENDER_FAILED" | "RENDER_DISABLED" | "SERVICE_UNAVAILABLE" | "OUTPUT_DAMAGED";
                /** @description The offending field, when one is to blame. */
                field?: string;
                message: string;
                /**
                 * @description Extension, on every 429: which limit refused (its policy is first in the RateLimit fields, with its true reset). `per-key`: The key made its requests of the minute (spec §8: 10 a minute per key by default). `unfinished-jobs`: The account has its most unfinished jobs (spec §8: 2); wait for one to end. `queue-full`: This instance holds its most queued jobs (spec §8: 32); try again shortly. `renders-per-minute`: The account made its synchronous renders of the minute (spec §8: 5). `renders-per-day`: The account made its synchronous renders of the UTC day (spec §8: 100); `RateLimit`'s `t` says when the day ends. `render-in-progress`: Another PNG render of the account is running (spec §8: one active heavy render). `previews-per-minute`: The account made its new previews of the minute (spec §8: 3). `drafts-per-minute`: Dashboard: the account's builder previews of the minute. `font-uploads`: Dashboard: the account's personal font uploads of the hour. `hand-pictures`: Dashboard: the pictures of sample-sheet pages the account gave its hands in the hour. `sign-in-tries`: Dashboard: sign-in and sign-up tries of an address or an email. `admin-token-failures`: Admin API: wrong admin tokens from one address within a minute.
                 * @enum {string}
                 */
                reason?: "per-key" | "unfinished-jobs" | "queue-full" | "renders-per-minute" | "renders-per-day" | "render-in-progress" | "previews-per-minute" | "drafts-per-minute" | "font-uploads" | "hand-pictures" | "sign-in-tries" | "admin-token-failures";
                requestId: string;
            };
        };
        Font: {
            /** Format: date-time */
            createdAt: string;
            family: string;
            /** @description Built from a hand (a filled sample sheet): its file is GET /fonts/{fontId}/file. */
            fromHand: boolean;
            glyphCount: number;
            id: string;
            license: string;
            name: string;
            /** @description The account's own font (otherwise shared). */
            personal: boolean;
            /** @description Needs a plan with premium fonts. */
            premium: boolean;
            /** @description Writing systems it covers (ISO 15924 names). */
            scripts: string[];
            /** @description Whether the caller's plan may use it now. */
            usable: boolean;
        };
        FontList: {
            data: components["schemas"]["Font"][];
            hasMore: boolean;
            nextCursor: string | null;
        };
        /**
         * @example {
         *       "id": "gen_7HqLm2XcV9bN4kTz0aWeRf",
         *       "kind": "pdf",
         *       "status": "completed",
         *       "templateId": "tpl_4fRkX9mQ2bLc8ZtW1nYpDs",
         *       "createdAt": "2026-11-24T16:19:40.378Z",
         *       "startedAt": "2026-11-24T16:19:40.388Z",
         *       "completedAt": "2026-11-24T16:19:41.421Z",
         *       "expiresAt": "2026-12-01T16:19:41.421Z",
         *       "pages": 3,
         *       "creditsSpent": 4.5,
         *       "downloadUrl": "/api/v1/generations/gen_7HqLm2XcV9bN4kTz0aWeRf/download",
         *       "metadata": {
         *         "order": "A-17"
         *       }
         *     }
         */
        Generation: {
            /** @description Extension: the batch this job is a row of. */
            batchId?: string;
            /** Format: date-time */
            cancelledAt?: string;
            /** Format: date-time */
            completedAt?: string;
            /** Format: date-time */
            createdAt: string;
            /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
            creditsSpent?: number;
            /** @description Relative (/api/v1/generations/{id}/download) or an absolute http(s) URL. */
            downloadUrl?: string;
            error?: {
                /** @enum {string} */
                code: "GENERATION_FAILED" | "INSUFFICIENT_BALANCE";
                message: string;
            };
            /** Format: date-time */
            expiresAt?: string;
            id: string;
            /** @enum {string} */
            kind: "pdf" | "preview";
            metadata: components["schemas"]["Metadata"];
            pages?: number;
            /**
             * @description Extension: which of its row's documents a batch's job is.
             * @enum {string}
             */
            part?: "letter" | "envelope";
            /** @description A completed preview: where its images are (/api/v1/generations/{id}/preview). Extension. */
            previewUrl?: string;
            /** @description Extension: a batch row's index in its batch, from 0. */
            row?: number;
            /** Format: date-time */
            startedAt?: string;
            /** @enum {string} */
            status: "queued" | "processing" | "completed" | "failed" | "cancelled";
            templateId: string;
        };
        GenerationList: {
            data: components["schemas"]["Generation"][];
            hasMore: boolean;
            nextCursor: string | null;
        };
        GenerationRequest: {
            /** @description Legacy Document v1 templates only: blocks (spec §2) within the limits of spec §8. */
            content?: components["schemas"]["ContentBlock"][];
            /** @description Structured templates: values of the dynamic blocks by key. */
            data?: {
                [key: string]: unknown;
            };
            metadata?: components["schemas"]["Metadata"];
            /** @description Legacy Document v1 templates only: settings of the template to change for this job (not the page: size, orientation, paper, background). Version 2 templates refuse it. */
            overrides?: {
                [key: string]: unknown;
            };
            templateId: string;
            /** @description Simple Text templates; 4,000 characters without a subscription. */
            text?: string;
        } & (unknown | unknown | unknown);
        LegacySettings: {
            /**
             * @default left
             * @enum {string}
             */
            align: "left" | "right" | "center" | "justify";
            background?: {
                assetId?: string;
                color?: string;
            };
            /** @default #1b2a6b */
            color: string;
            /** @default 12 */
            columnGap: number;
            /** @default 0 */
            firstLineIndent: number;
            /** @default 18 */
            fontSize: number;
            /** @default 0 */
            letterSpacing: number;
            /** @default 1.5 */
            lineHeight: number;
            /**
             * @default {
             *       "top": 20,
             *       "right": 20,
             *       "bottom": 20,
             *       "left": 25
             *     }
             */
            margins: {
                bottom: number;
                left: number;
                right: number;
                top: number;
            };
            modifiers: {
                fatigue: {
                    /** @default 0.2 */
                    amount: number;
                    /** @default true */
                    enabled: boolean;
                };
                ink: {
                    /** @default 0.5 */
                    bleed: number;
                    /** @default 0.3 */
                    blots: number;
                    /** @default 0.15 */
                    colorVariation: number;
                    /** @default true */
                    enabled: boolean;
                    /** @default 0.4 */
                    flow: number;
                    /** @default 0.3 */
                    pressure: number;
                };
                letters: {
                    /** @default true */
                    alternates: boolean;
                    /** @default 0.8 */
                    baseline: number;
                    /** @default true */
                    enabled: boolean;
                    /** @default 2 */
                    rotation: number;
                    /** @default 0.04 */
                    scale: number;
                    /** @default 0.3 */
                    spacing: number;
                    warp?: number;
                };
                lines: {
                    /** @default 0.8 */
                    drift: number;
                    /** @default true */
                    enabled: boolean;
                    /** @default 0.6 */
                    slope: number;
                    /** @default 1.5 */
                    wobble: number;
                };
                paper: {
                    /** @default true */
                    enabled: boolean;
                    /** @default false */
                    scanner: boolean;
                    /** @default 0 */
                    shadow: number;
                    /** @default 0.25 */
                    texture: number;
                    /** @default 0 */
                    tilt: number;
                };
                /** @default 1 */
                seed: number;
                shapes: {
                    /** @default 0.5 */
                    amount: number;
                    /** @default true */
                    enabled: boolean;
                };
                words: {
                    /** @default true */
                    enabled: boolean;
                    /** @default 0.03 */
                    size: number;
                    /** @default 0.15 */
                    spacing: number;
                };
            };
            /**
             * @default portrait
             * @enum {string}
             */
            orientation: "portrait" | "landscape";
            /** @default A4 */
            pageSize: ("A5" | "A4" | "A3" | "Letter" | "DL" | "C5" | "C6" | "US10") | {
                height: number;
                name: string;
                /** @enum {string} */
                unit: "mm" | "px";
                width: number;
            };
            paper: {
                /** @default #fffdf6 */
                background: string;
                /** @default #9db6d9 */
                color: string;
                marginRule: {
                    /** @default #e57373 */
                    color: string;
                    /** @default false */
                    enabled: boolean;
                    /** @default 20 */
                    position: number;
                };
                /** @default 8 */
                spacing: number;
                /**
                 * @default blank
                 * @enum {string}
                 */
                type: "blank" | "lined" | "grid" | "dotted";
            };
            /** @default 0 */
            wordSpacing: number;
        };
        /** @description Extension: your own labels for the job (an order number, a customer id), echoed on the job and in its webhook events: at most 20 keys of 1-40 characters, string values of at most 500 characters, no control characters. Empty when none was sent. */
        Metadata: {
            [key: string]: string;
        };
        Preview: {
            id: string;
            pages: {
                /** @constant */
                contentType: "image/png";
                data: string;
                height: number;
                page: number;
                width: number;
            }[];
        };
        PreviewRequest: {
            content?: components["schemas"]["ContentBlock"][];
            data?: {
                [key: string]: unknown;
            };
            metadata?: components["schemas"]["Metadata"];
            templateId: string;
            text?: string;
        } & (unknown | unknown | unknown);
        RenderRequest: {
            /** @description pt; the only permitted override. */
            fontSize?: number;
            /**
             * @description `svg`: letter outlines; `png`: an image rendered on the server at 144 DPI; `strokes` (extension): for pen plotters and writing robots, an SVG of the letters' centrelines as stroked paths in writing order, one path per pen-down movement, with no fills and no paper (width and height in mm).
             * @enum {string}
             */
            format: "svg" | "png" | "strokes";
            templateId: string;
            /** @description Up to 20 lines including wrapping. */
            text: string;
        };
        Style: {
            /**
             * @default left
             * @enum {string}
             */
            align: "left" | "right" | "center" | "justify";
            background?: {
                assetId?: string;
                color?: string;
            };
            /** @default #1b2a6b */
            color: string;
            /** @default 0 */
            firstLineIndent: number;
            fontId: string;
            /** @default 18 */
            fontSize: number;
            /** @default 0 */
            letterSpacing: number;
            /** @default 1.5 */
            lineHeight: number;
            /**
             * @default {
             *       "top": 20,
             *       "right": 20,
             *       "bottom": 20,
             *       "left": 25
             *     }
             */
            margins: {
                bottom: number;
                left: number;
                right: number;
                top: number;
            };
            modifiers: {
                fatigue: {
                    /** @default 0.2 */
                    amount: number;
                    /** @default true */
                    enabled: boolean;
                };
                ink: {
                    /** @default 0.5 */
                    bleed: number;
                    /** @default 0.3 */
                    blots: number;
                    /** @default 0.15 */
                    colorVariation: number;
                    /** @default true */
                    enabled: boolean;
                    /** @default 0.4 */
                    flow: number;
                    /** @default 0.3 */
                    pressure: number;
                };
                letters: {
                    /** @default true */
                    alternates: boolean;
                    /** @default 0.8 */
                    baseline: number;
                    /** @default true */
                    enabled: boolean;
                    /** @default 2 */
                    rotation: number;
                    /** @default 0.04 */
                    scale: number;
                    /** @default 0.3 */
                    spacing: number;
                    warp?: number;
                };
                lines: {
                    /** @default 0.8 */
                    drift: number;
                    /** @default true */
                    enabled: boolean;
                    /** @default 0.6 */
                    slope: number;
                    /** @default 1.5 */
                    wobble: number;
                };
                paper: {
                    /** @default true */
                    enabled: boolean;
                    /** @default false */
                    scanner: boolean;
                    /** @default 0 */
                    shadow: number;
                    /** @default 0.25 */
                    texture: number;
                    /** @default 0 */
                    tilt: number;
                };
                /** @default 1 */
                seed: number;
                shapes: {
                    /** @default 0.5 */
                    amount: number;
                    /** @default true */
                    enabled: boolean;
                };
                words: {
                    /** @default true */
                    enabled: boolean;
                    /** @default 0.03 */
                    size: number;
                    /** @default 0.15 */
                    spacing: number;
                };
            };
            /**
             * @default portrait
             * @enum {string}
             */
            orientation: "portrait" | "landscape";
            /** @default A4 */
            pageSize: ("A5" | "A4" | "A3" | "Letter" | "DL" | "C5" | "C6" | "US10") | {
                height: number;
                name: string;
                /** @enum {string} */
                unit: "mm" | "px";
                width: number;
            };
            paper: {
                /** @default #fffdf6 */
                background: string;
                /** @default #9db6d9 */
                color: string;
                marginRule: {
                    /** @default #e57373 */
                    color: string;
                    /** @default false */
                    enabled: boolean;
                    /** @default 20 */
                    position: number;
                };
                /** @default 8 */
                spacing: number;
                /**
                 * @default blank
                 * @enum {string}
                 */
                type: "blank" | "lined" | "grid" | "dotted";
            };
            /** @default 0 */
            wordSpacing: number;
        };
        Template: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            /** @constant */
            mode: "simple";
            name: string;
            revision: number;
            style: components["schemas"]["Style"];
            /** Format: date-time */
            updatedAt: string;
            /** @constant */
            version: 2;
        } | {
            blocks: components["schemas"]["Block"][];
            /** Format: date-time */
            createdAt: string;
            id: string;
            /** @constant */
            mode: "structured";
            name: string;
            revision: number;
            style: components["schemas"]["Style"];
            /** Format: date-time */
            updatedAt: string;
            /** @constant */
            version: 2;
        } | {
            /** Format: date-time */
            createdAt: string;
            fontIds: string[];
            id: string;
            /** @constant */
            mode: "legacy";
            name: string;
            revision: number;
            settings: components["schemas"]["LegacySettings"];
            /** Format: date-time */
            updatedAt: string;
            /** @constant */
            version: 1;
        };
        TemplateList: {
            data: components["schemas"]["TemplateSummary"][];
            hasMore: boolean;
            nextCursor: string | null;
        };
        TemplateSummary: {
            /** Format: date-time */
            createdAt: string;
            id: string;
            /** @enum {string} */
            mode: "simple" | "structured" | "legacy";
            name: string;
            revision: number;
            /** Format: date-time */
            updatedAt: string;
            /** @enum {integer} */
            version: 1 | 2;
        };
        Usage: {
            balance: components["schemas"]["Balance"];
            cancelledGenerations: number;
            /** @description API sheets; fractional values are possible (an A4 page is 1.5). */
            creditsSpent: number;
            failedGenerations: number;
            generations: number;
            /** @enum {string} */
            mode: "live" | "test";
            pages: number;
            period: {
                days: number;
                /** Format: date */
                from: string;
                /**
                 * Format: date
                 * @description Exclusive.
                 */
                to: string;
            };
            pngRenders: number;
            previews: number;
            renders: number;
            requests: number;
            successfulGenerations: number;
            svgRenders: number;
        };
        WebhookEvent: {
            /** Format: date-time */
            createdAt: string;
            data: {
                generation: components["schemas"]["Generation"];
            };
            id: string;
            /** @enum {string} */
            type: "generation.completed" | "generation.failed" | "preview.completed" | "preview.failed";
        };
        WebhookTestEvent: {
            /** Format: date-time */
            createdAt: string;
            data: {
                endpoint: {
                    id: string;
                    /** @enum {string} */
                    mode: "live" | "test";
                    /** Format: uri */
                    url: string;
                };
            };
            id: string;
            /** @constant */
            type: "webhook.test";
        };
    };
    responses: {
        /** @description INVALID_REQUEST: malformed input or a broken limit; the message names the field, the range and the value. */
        BadRequest: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description GENERATION_NOT_READY or PREVIEW_ONLY. */
        Conflict: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description GENERATION_EXPIRED: past the 7-day retention. */
        Gone: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description INTERNAL_ERROR (or RENDER_FAILED on renders, OUTPUT_DAMAGED on a download whose stored output is lost or altered): quote the request id. */
        Internal: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description TEMPLATE_NOT_FOUND, GENERATION_NOT_FOUND, FONT_NOT_FOUND or ENDPOINT_NOT_FOUND (also for other accounts' objects and the other key mode). */
        NotFound: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description INVALID_REQUEST: the body is over its limit (512 KiB JSON, 5 MiB image). */
        TooLarge: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description RATE_LIMIT_EXCEEDED: wait Retry-After seconds; `reason` says which limit refused. */
        TooMany: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description INVALID_API_KEY or API_KEY_REVOKED. */
        Unauthorized: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                /** @description RFC 6750: the key is a Bearer token. */
                "WWW-Authenticate"?: "Bearer realm=\"api\"";
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
        /** @description SERVICE_UNAVAILABLE (extension): storage cannot write or be reached now (a full disk, S3 away); nothing was changed. Wait Retry-After seconds. */
        Unavailable: {
            headers: {
                RateLimit: components["headers"]["RateLimit"];
                "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                "Retry-After": components["headers"]["Retry-After"];
                "X-Request-ID": components["headers"]["X-Request-ID"];
                [name: string]: unknown;
            };
            content: {
                "application/json": components["schemas"]["Error"];
            };
        };
    };
    parameters: {
        /** @description Extension: a key of your choice (a UUID) that makes a retry safe. The first answer is kept 24 hours for the account and key mode; the same key with the same body gets it again (`Idempotent-Replayed: true`), with another body 400, while the first is still running 409 IDEMPOTENCY_KEY_IN_USE. An answer that is an error is not kept: the retry runs again. */
        IdempotencyKey: string;
    };
    requestBodies: never;
    headers: {
        /** @description Extension: `true` when this is the kept answer of an earlier request with the same Idempotency-Key, not a new one. */
        "Idempotent-Replayed": "true";
        /** @description Where to poll the job: `/api/v1/generations/{id}`. */
        Location: string;
        /** @description What is left of it: `"per-key";r=<left>;t=<seconds to reset>`. */
        RateLimit: string;
        /** @description The per-key limit: `"per-key";q=<requests>;w=<seconds>`. */
        "RateLimit-Policy": string;
        /** @description Seconds to wait. */
        "Retry-After": string;
        /** @description The request id (`req_…`) to quote to support. */
        "X-Request-ID": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    uploadAsset: {
        parameters: {
            query?: never;
            header?: {
                /** @description Extension: a key of your choice (a UUID) that makes a retry safe. The first answer is kept 24 hours for the account and key mode; the same key with the same body gets it again (`Idempotent-Replayed: true`), with another body 400, while the first is still running 409 IDEMPOTENCY_KEY_IN_USE. An answer that is an error is not kept: the retry runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "image/jpeg": string;
                "image/png": string;
            };
        };
        responses: {
            /** @description Stored. */
            201: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Asset"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            /** @description IDEMPOTENCY_KEY_IN_USE (extension): the first request with this Idempotency-Key is still being answered; retry after Retry-After seconds. */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listBatches: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page. */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    createBatch: {
        parameters: {
            query?: never;
            header?: {
                /** @description Extension: a key of your choice (a UUID) that makes a retry safe. The first answer is kept 24 hours for the account and key mode; the same key with the same body gets it again (`Idempotent-Replayed: true`), with another body 400, while the first is still running 409 IDEMPOTENCY_KEY_IN_USE. An answer that is an error is not kept: the retry runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "templateId": "tpl_4fRkX9mQ2bLc8ZtW1nYpDs",
                 *       "rows": [
                 *         {
                 *           "text": "Dear Margaret, thank you for the lovely afternoon.",
                 *           "metadata": {
                 *             "name": "margaret"
                 *           }
                 *         },
                 *         {
                 *           "text": "Dear Tom, thank you for the flowers.",
                 *           "metadata": {
                 *             "name": "tom"
                 *           }
                 *         }
                 *       ]
                 *     }
                 */
                "application/json": components["schemas"]["BatchRequest"];
            };
        };
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "bat_3kTn8WqZ1xLm5VbR9cYdPe",
                     *       "status": "queued",
                     *       "templateId": "tpl_4fRkX9mQ2bLc8ZtW1nYpDs",
                     *       "createdAt": "2026-11-24T16:19:40.378Z",
                     *       "updatedAt": "2026-11-24T16:19:40.378Z",
                     *       "rows": {
                     *         "total": 2,
                     *         "queued": 2,
                     *         "processing": 0,
                     *         "completed": 0,
                     *         "failed": 0,
                     *         "cancelled": 0
                     *       },
                     *       "pages": 0,
                     *       "creditsSpent": 0,
                     *       "rowsUrl": "/api/v1/batches/bat_3kTn8WqZ1xLm5VbR9cYdPe/rows",
                     *       "metadata": {}
                     *     }
                     */
                    "application/json": components["schemas"]["Batch"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description INSUFFICIENT_BALANCE: the allowance and balance do not cover one page a row. */
            402: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FONT_ACCESS_DENIED: the template uses a premium font the plan does not include. */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            /** @description IDEMPOTENCY_KEY_IN_USE (extension): the first request with this Idempotency-Key is still being answered; retry after Retry-After seconds. */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getBatch: {
        parameters: {
            query?: {
                /** @description Extension: hold the answer up to this many seconds, until what it shows changes (its status, a count) or the work ends; one request of the per-key limit. */
                wait?: number;
                /** @description Extension: with `wait`, `end` holds the answer until the work ends (or `wait` passes), not the first change. */
                waitFor?: "change" | "end";
            };
            header?: never;
            path: {
                /** @description a `bat_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    cancelBatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a `bat_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The batch (400 INVALID_REQUEST for a completed one, unchanged). */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Batch"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    downloadBatch: {
        parameters: {
            query?: {
                /** @description A metadata key: each entry's name adds that row's value after its index. */
                name?: string;
            };
            header?: never;
            path: {
                /** @description a `bat_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The ZIP. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/zip": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            /** @description GENERATION_NOT_READY: the batch is still running, or no row completed. */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            410: components["responses"]["Gone"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    mergeBatch: {
        parameters: {
            query?: {
                /** @description `envelope`: the rows' envelopes instead of their letters. */
                part?: "letter" | "envelope";
            };
            header?: never;
            path: {
                /** @description a `bat_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            /** @description GENERATION_NOT_READY: the batch is still running, no row completed, or it was sent without `merge: true`. */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            410: components["responses"]["Gone"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listBatchRows: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page. */
                cursor?: string;
                limit?: number;
                status?: "queued" | "processing" | "completed" | "failed" | "cancelled";
            };
            header?: never;
            path: {
                /** @description a `bat_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["BatchRowList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listFonts: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page. */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FontList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    downloadFontFile: {
        parameters: {
            query?: {
                format?: "otf" | "woff2";
            };
            header?: never;
            path: {
                /** @description a `font_…` id */
                fontId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The font file, as an attachment named for the font. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "font/otf": string;
                    "font/woff2": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    listGenerations: {
        parameters: {
            query?: {
                /** @description Jobs created at or after this moment: a UTC date YYYY-MM-DD or a date-time with its offset (2026-11-24T15:00:00Z). */
                createdFrom?: string;
                /** @description Jobs created before this moment (exclusive), in the same forms. */
                createdTo?: string;
                /** @description nextCursor of the previous page. */
                cursor?: string;
                kind?: "pdf" | "preview";
                limit?: number;
                status?: "queued" | "processing" | "completed" | "failed" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["GenerationList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    createGeneration: {
        parameters: {
            query?: never;
            header?: {
                /** @description Extension: a key of your choice (a UUID) that makes a retry safe. The first answer is kept 24 hours for the account and key mode; the same key with the same body gets it again (`Idempotent-Replayed: true`), with another body 400, while the first is still running 409 IDEMPOTENCY_KEY_IN_USE. An answer that is an error is not kept: the retry runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "templateId": "tpl_4fRkX9mQ2bLc8ZtW1nYpDs",
                 *       "text": "Dear Margaret, thank you for the lovely afternoon.",
                 *       "metadata": {
                 *         "order": "A-17"
                 *       }
                 *     }
                 */
                "application/json": components["schemas"]["GenerationRequest"];
            };
        };
        responses: {
            /** @description Queued. */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "gen_7HqLm2XcV9bN4kTz0aWeRf",
                     *       "kind": "pdf",
                     *       "status": "queued",
                     *       "templateId": "tpl_4fRkX9mQ2bLc8ZtW1nYpDs",
                     *       "createdAt": "2026-11-24T16:19:40.378Z",
                     *       "metadata": {
                     *         "order": "A-17"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description INSUFFICIENT_BALANCE. */
            402: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FONT_ACCESS_DENIED: the template uses a premium font the plan does not include. */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            /** @description IDEMPOTENCY_KEY_IN_USE (extension): the first request with this Idempotency-Key is still being answered; retry after Retry-After seconds. */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getGeneration: {
        parameters: {
            query?: {
                /** @description Extension: hold the answer up to this many seconds, until what it shows changes (its status, a count) or the work ends; one request of the per-key limit. */
                wait?: number;
                /** @description Extension: with `wait`, `end` holds the answer until the work ends (or `wait` passes), not the first change. */
                waitFor?: "change" | "end";
            };
            header?: never;
            path: {
                /** @description a `gen_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The job. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Generation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    cancelGeneration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a `gen_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The cancelled job. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Generation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    downloadGeneration: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a `gen_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The PDF. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/pdf": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getPreview: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a `gen_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pages. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Preview"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            409: components["responses"]["Conflict"];
            410: components["responses"]["Gone"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    createPreview: {
        parameters: {
            query?: never;
            header?: {
                /** @description Extension: a key of your choice (a UUID) that makes a retry safe. The first answer is kept 24 hours for the account and key mode; the same key with the same body gets it again (`Idempotent-Replayed: true`), with another body 400, while the first is still running 409 IDEMPOTENCY_KEY_IN_USE. An answer that is an error is not kept: the retry runs again. */
                "Idempotency-Key"?: components["parameters"]["IdempotencyKey"];
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "templateId": "tpl_4fRkX9mQ2bLc8ZtW1nYpDs",
                 *       "text": "Dear Margaret, thank you for the lovely afternoon."
                 *     }
                 */
                "application/json": components["schemas"]["PreviewRequest"];
            };
        };
        responses: {
            /** @description The unchanged earlier preview. */
            200: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Generation"];
                };
            };
            /** @description Queued. */
            202: {
                headers: {
                    "Idempotent-Replayed": components["headers"]["Idempotent-Replayed"];
                    Location: components["headers"]["Location"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    /**
                     * @example {
                     *       "id": "gen_7HqLm2XcV9bN4kTz0aWeRf",
                     *       "kind": "preview",
                     *       "status": "queued",
                     *       "templateId": "tpl_4fRkX9mQ2bLc8ZtW1nYpDs",
                     *       "createdAt": "2026-11-24T16:19:40.378Z",
                     *       "metadata": {
                     *         "order": "A-17"
                     *       }
                     *     }
                     */
                    "application/json": components["schemas"]["Generation"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            /** @description IDEMPOTENCY_KEY_IN_USE (extension): the first request with this Idempotency-Key is still being answered; retry after Retry-After seconds. */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    render: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                /**
                 * @example {
                 *       "templateId": "tpl_4fRkX9mQ2bLc8ZtW1nYpDs",
                 *       "text": "Hello there",
                 *       "format": "png",
                 *       "fontSize": 28
                 *     }
                 */
                "application/json": components["schemas"]["RenderRequest"];
            };
        };
        responses: {
            /** @description The image; `strokes` answers `image/svg+xml` too. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Extension, `strokes` only: how often the pen goes down on the page (its paths); also `data-pen-downs` on the root element. */
                    "X-Pen-Downs"?: number;
                    /** @description Extension, `strokes` only: how far the pen travels up between its paths, in mm on the page; also `data-pen-up-mm` on the root element. */
                    "X-Pen-Up-Mm"?: number;
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "image/png": string;
                    "image/svg+xml": string;
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            /** @description INSUFFICIENT_BALANCE (credits mode). */
            402: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RENDER_ACCESS_DENIED or FONT_ACCESS_DENIED. */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            /** @description RENDER_DISABLED, or SERVICE_UNAVAILABLE (extension) while storage cannot be written or reached. */
            503: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTemplates: {
        parameters: {
            query?: {
                /** @description nextCursor of the previous page. */
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description A page. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["TemplateList"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getTemplate: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description a `tpl_…` id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The template. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Template"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    getUsage: {
        parameters: {
            query?: {
                /** @description Inclusive; default the first of the current month. */
                from?: string;
                /** @description Exclusive; default tomorrow (today inclusive). At most 366 days after from. */
                to?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The report. */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-Request-ID": components["headers"]["X-Request-ID"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Usage"];
                };
            };
            400: components["responses"]["BadRequest"];
            401: components["responses"]["Unauthorized"];
            404: components["responses"]["NotFound"];
            413: components["responses"]["TooLarge"];
            429: components["responses"]["TooMany"];
            500: components["responses"]["Internal"];
            503: components["responses"]["Unavailable"];
        };
    };
    webhook_batch_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description Which try this is, from 1. */
                "Scriptorium-Attempt": string;
                /** @description This delivery (`dlv_…`), one per event and endpoint. */
                "Scriptorium-Delivery-Id": string;
                /** @description The event id (`evt_…`), the same in every delivery of it: process each id once. */
                "Scriptorium-Event-Id": string;
                /** @description batch.completed */
                "Scriptorium-Event-Type": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint secret>`; verify it over the raw body before parsing (verifyWebhook in scriptorium/client) and refuse a t more than 300 s away. */
                "Scriptorium-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["BatchEvent"];
            };
        };
        responses: {
            /** @description Received: the delivery is done. Anything else (or no answer within 10 s) is tried again: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_generation_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description Which try this is, from 1. */
                "Scriptorium-Attempt": string;
                /** @description This delivery (`dlv_…`), one per event and endpoint. */
                "Scriptorium-Delivery-Id": string;
                /** @description The event id (`evt_…`), the same in every delivery of it: process each id once. */
                "Scriptorium-Event-Id": string;
                /** @description generation.completed */
                "Scriptorium-Event-Type": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint secret>`; verify it over the raw body before parsing (verifyWebhook in scriptorium/client) and refuse a t more than 300 s away. */
                "Scriptorium-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvent"];
            };
        };
        responses: {
            /** @description Received: the delivery is done. Anything else (or no answer within 10 s) is tried again: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_generation_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description Which try this is, from 1. */
                "Scriptorium-Attempt": string;
                /** @description This delivery (`dlv_…`), one per event and endpoint. */
                "Scriptorium-Delivery-Id": string;
                /** @description The event id (`evt_…`), the same in every delivery of it: process each id once. */
                "Scriptorium-Event-Id": string;
                /** @description generation.failed */
                "Scriptorium-Event-Type": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint secret>`; verify it over the raw body before parsing (verifyWebhook in scriptorium/client) and refuse a t more than 300 s away. */
                "Scriptorium-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvent"];
            };
        };
        responses: {
            /** @description Received: the delivery is done. Anything else (or no answer within 10 s) is tried again: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_preview_completed: {
        parameters: {
            query?: never;
            header: {
                /** @description Which try this is, from 1. */
                "Scriptorium-Attempt": string;
                /** @description This delivery (`dlv_…`), one per event and endpoint. */
                "Scriptorium-Delivery-Id": string;
                /** @description The event id (`evt_…`), the same in every delivery of it: process each id once. */
                "Scriptorium-Event-Id": string;
                /** @description preview.completed */
                "Scriptorium-Event-Type": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint secret>`; verify it over the raw body before parsing (verifyWebhook in scriptorium/client) and refuse a t more than 300 s away. */
                "Scriptorium-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvent"];
            };
        };
        responses: {
            /** @description Received: the delivery is done. Anything else (or no answer within 10 s) is tried again: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_preview_failed: {
        parameters: {
            query?: never;
            header: {
                /** @description Which try this is, from 1. */
                "Scriptorium-Attempt": string;
                /** @description This delivery (`dlv_…`), one per event and endpoint. */
                "Scriptorium-Delivery-Id": string;
                /** @description The event id (`evt_…`), the same in every delivery of it: process each id once. */
                "Scriptorium-Event-Id": string;
                /** @description preview.failed */
                "Scriptorium-Event-Type": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint secret>`; verify it over the raw body before parsing (verifyWebhook in scriptorium/client) and refuse a t more than 300 s away. */
                "Scriptorium-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookEvent"];
            };
        };
        responses: {
            /** @description Received: the delivery is done. Anything else (or no answer within 10 s) is tried again: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
    webhook_webhook_test: {
        parameters: {
            query?: never;
            header: {
                /** @description Which try this is, from 1. */
                "Scriptorium-Attempt": string;
                /** @description This delivery (`dlv_…`), one per event and endpoint. */
                "Scriptorium-Delivery-Id": string;
                /** @description The event id (`evt_…`), the same in every delivery of it: process each id once. */
                "Scriptorium-Event-Id": string;
                /** @description webhook.test */
                "Scriptorium-Event-Type": string;
                /** @description `t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the endpoint secret>`; verify it over the raw body before parsing (verifyWebhook in scriptorium/client) and refuse a t more than 300 s away. */
                "Scriptorium-Signature": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WebhookTestEvent"];
            };
        };
        responses: {
            /** @description Received: the delivery is done. Anything else (or no answer within 10 s) is tried again: 10 s, 30 s, 2 min, 10 min, 30 min, 1 h, 3 h, 6 h, 12 h, 12 h. */
            "2XX": {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
        };
    };
}
