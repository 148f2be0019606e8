// `import Vision` on iOS brings Foundation and the image types with it; so does `import VisageVision`.
// Visage's own module is imported privately, so its types (whose names the iOS 18 API reuses with
// CGFloat coordinates) do not clash: a file that imports both writes `Visage.FaceObservation`.
@_exported import Foundation
@_exported import VisageImageStandIns
