import VisageContours

/// Contours can be requested through ``ImageRequestHandler`` beside face requests, on the same decode.
extension DetectContoursRequest: ImageProcessingRequest {}
