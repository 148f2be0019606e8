// The face API of Firebase ML Vision (`import Firebase`, pods Firebase/MLVision; deprecated by Google
// for ML Kit), as a layer over VisageMLKit. A module of its own because Firebase's `VisionPoint` holds
// `NSNumber` coordinates where ML Kit's holds `CGFloat`: one module cannot spell both.
@_exported import Foundation
@_exported import VisageImageStandIns
