import DocModel

/// How list pages follow each other and when to stop.
public struct Pagination: Sendable {
    /// The paging scheme.
    public enum Kind: String, Sendable, CaseIterable {
        /// A single request.
        case none
        /// `{page}` counts up from `first`; `{pageSize}` is `size`.
        case page
        /// 1-based inclusive ranges: `{start}`…`{end}`, `size` records each.
        case range
        /// `{offset}` counts up by `{limit}` (= `size`) from `first`.
        case offset
        /// `{cursor}` (or the `param` query parameter) carries the value found at `next`.
        case cursor
        /// The next page's URL is in the body (`next`) or in a `Link: <…>; rel="next"` header.
        case nextLink
    }

    public var kind: Kind
    /// First page number (page, default 1), first index (range, default 1; offset, default 0).
    public var first: Int
    /// Page size, range length or limit.
    public var size: Int?
    /// Body field holding the number of pages.
    public var totalPages: FieldPath?
    /// Body field holding the number of records (numbers or numeric strings).
    public var totalItems: FieldPath?
    /// Body field that is `true` on the last page (such as `meta.is_end`).
    public var isEnd: FieldPath?
    /// Cursor: body field with the next cursor. NextLink: body field with the next URL (nil: `Link` header).
    public var next: FieldPath?
    /// Cursor: query parameter that carries the cursor when no template uses `{cursor}`.
    public var cursorParam: String?
    /// Stop when a page has fewer records than `size`.
    public var stopOnShortPage: Bool
    /// Stop when a page has no records (default true).
    public var stopOnEmptyPage: Bool
    /// Safety cap; reaching it fails the pull.
    public var maxPages: Int

    /// A single request, no paging.
    public static let none = Pagination(kind: .none, first: 1, size: nil, totalPages: nil, totalItems: nil, isEnd: nil,
                                        next: nil, cursorParam: nil, stopOnShortPage: false, stopOnEmptyPage: true, maxPages: 1)

    /// The `{…}` names list templates may use with this scheme.
    var templateVariables: Set<String> {
        switch kind {
        case .none, .nextLink: []
        case .page: ["page", "pageSize"]
        case .range: ["start", "end", "size"]
        case .offset: ["offset", "limit"]
        case .cursor: ["cursor"]
        }
    }
}
