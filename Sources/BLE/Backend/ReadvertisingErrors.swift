import Host

/// The errors an advertiser met enabling its advertising again after a connection
/// (``LEAdvertiser/readvertisingErrors``), handed out once each: a peripheral manager tells them
/// on its events when a link comes or goes, so a central that cannot connect has a reason on
/// record, not only a silence.
actor ReadvertisingErrors {
    private let advertiser: LEAdvertiser
    private var told = 0

    init(advertiser: LEAdvertiser) { self.advertiser = advertiser }

    /// The errors not handed out yet, oldest first (the advertiser keeps the newest 16).
    func new() async -> [BLEError] {
        let errors = await advertiser.readvertisingErrors
        if errors.count < told { told = 0 }        // older ones fell out of the advertiser's list
        defer { told = errors.count }
        return errors.dropFirst(told).map { BLEError(advertising: $0) }
    }
}
