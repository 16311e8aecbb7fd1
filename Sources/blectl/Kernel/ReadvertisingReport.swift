import Host

/// Says, among `serve`'s connection lines, each time the advertiser failed to advertise again
/// after a connection (``LEAdvertiser/readvertisingErrors``): a central that cannot connect then
/// has a reason on record, not only a silence.
actor ReadvertisingReport {
    private let advertiser: LEAdvertiser
    private let events: ServeEvents
    private var said = 0

    init(advertiser: LEAdvertiser, events: ServeEvents) {
        self.advertiser = advertiser
        self.events = events
    }

    /// Says the errors not said yet (the advertiser keeps the newest few).
    func sayNewErrors() async {
        let errors = await advertiser.readvertisingErrors
        if errors.count < said { said = 0 }        // older ones fell out of the advertiser's list
        for error in errors.dropFirst(said) { events.say("advertising again failed: \(error)") }
        said = errors.count
    }
}
