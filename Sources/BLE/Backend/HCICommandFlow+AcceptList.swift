import BLECore
import HCI
import Host

extension HCICommandFlow {
    /// How many devices the controller's Filter Accept List holds
    /// (HCI_LE_Read_Filter_Accept_List_Size, Core v5.4, Vol 4, Part E, 7.8.14), at least 1 (also
    /// when the controller does not answer), read once and kept in `cache`.
    func filterAcceptListCapacity(cachedIn cache: OneShot<Int>) async -> Int {
        if let known = cache.value { return known }
        let size = (try? await send(HCILEReadFilterAcceptListSize()))?.filterAcceptListSize ?? 1
        cache.resolve(max(1, Int(size)))
        return cache.value ?? 1
    }
}
