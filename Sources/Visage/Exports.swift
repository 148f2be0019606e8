// Public API of Visage: requests, observations and the face pipeline.
@_exported import VisageGeometry
@_exported import VisageImage
@_exported import VisageContours
@_exported import VisageVideo
@_exported import VisageModels
