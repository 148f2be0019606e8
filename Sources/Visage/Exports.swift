// Public API of Visage: requests, observations and the face pipeline.
//
// Foundation is re-exported because the public API is made of its types (URL, Data, UUID,
// Measurement<UnitAngle>, CGRect, CGPoint, CGSize): a user cannot call it without them, so
// `import Visage` is all a user writes, as `import Vision` is on Apple's platforms.
@_exported import Foundation
@_exported import VisageGeometry
@_exported import VisageImage
@_exported import VisageContours
@_exported import VisageVideo
@_exported import VisageModels
